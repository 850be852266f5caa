//! A language-server connection: the process lives in the host (a detached subprocess), its
//! protocol state in seam:host/state, so it outlives the lane that started it. A lane holding
//! the connection's lease loads it, talks, and saves it back.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::activity::Activity;
use crate::bindings::seam::host::state;
use crate::bindings::seam::subprocess::subprocess::{self, Process};
use crate::bindings::seam::subprocess::types::{Collect, Farewell, Input, Output, SpawnSpec};
use crate::bindings::seam::tool::context;
use crate::clock::{left, now_ms};
use crate::config::Config;
use crate::document::Workspace;
use crate::encoding::Encoding;
use crate::framing;
use crate::lease::Lease;
use crate::message::{self, Incoming};
use crate::registry::Entry;
use crate::server_requests;
use crate::transport::{Fault, Transport};

/// Longest single wait on the server's output: how late a cancellation is noticed.
const SLICE_MS: u64 = 250;

/// What survives between lanes.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Saved {
    /// The subprocess seam's id of the server process.
    pub process: u64,
    pub pid: u32,
    pub encoding: Encoding,
    pub next_id: u64,
    pub activity: Activity,
    /// Requests nobody waits for any more (timed out, cancelled): their answers are dropped.
    pub stale: BTreeSet<u64>,
    /// Bytes past the last whole frame are stored under `carry/`: most lanes end on a frame
    /// boundary and skip that key's round trips.
    #[serde(default)]
    pub carry: bool,
}

pub struct Connection<'a> {
    key: String,
    transport: Transport,
    pub saved: Saved,
    entry: &'a Entry,
    config: &'a Config,
    folders: Value,
    /// Notification bodies written together with the next request.
    outbox: Vec<String>,
    /// Held while talking; renewed while waiting.
    lease: &'a Lease,
}

// State keys are concatenated, not formatted: every query builds several, and the formatting
// machinery is cold code in a lane's fresh instance.
fn saved_key(key: &str) -> String {
    ["conn/", key].concat()
}

fn carry_key(key: &str) -> String {
    ["carry/", key].concat()
}

/// The state key of the connection of `server` on the workspace with canonical key `workspace`.
pub fn pool_key(server: &str, workspace: &str) -> String {
    [server, "|", workspace].concat()
}

/// Terminate the connection's process (if any) and forget it.
pub fn discard(key: &str) {
    if let Some(saved) = load(key)
        && let Ok(process) = subprocess::attach(saved.process)
    {
        process.terminate();
    }
    state::delete(&saved_key(key));
    state::delete(&carry_key(key));
}

/// What the host says to a server that idles out (no call runs then, so nobody reads the
/// answer): `shutdown` (id 0, which no request of a connection uses) and `exit`, with the
/// shutdown timeout to exit on its own before its tree is terminated.
fn farewell(config: &Config) -> Farewell {
    let mut wire = String::new();
    framing::encode_into(&mut wire, &message::request(0, "shutdown", Value::Null));
    framing::encode_into(&mut wire, &message::notification("exit", Value::Null));
    Farewell {
        stdin: wire.into_bytes(),
        wait_ms: config.shutdown_timeout_ms,
    }
}

fn load(key: &str) -> Option<Saved> {
    serde_json::from_slice(&state::get(&saved_key(key))?).ok()
}

/// Pool keys of every connection of `server`.
pub fn keys_of(server: &str) -> Vec<String> {
    state::keys(&saved_key(&format!("{server}|")))
        .into_iter()
        .filter_map(|k| k.strip_prefix("conn/").map(str::to_owned))
        .collect()
}

impl<'a> Connection<'a> {
    /// The live connection under `key`, or None when there is none or its server has exited.
    pub fn resume(
        key: &str,
        entry: &'a Entry,
        config: &'a Config,
        workspace: &Workspace,
        lease: &'a Lease,
    ) -> Option<Self> {
        let saved = load(key)?;
        let process = subprocess::attach(saved.process).ok();
        let Some(process) = process.filter(|p| p.wait(Some(0)).is_none()) else {
            discard(key);
            return None;
        };
        let carry = if saved.carry {
            state::get(&carry_key(key)).unwrap_or_default()
        } else {
            Vec::new()
        };
        Some(Self {
            key: key.to_owned(),
            transport: Transport::new(process, carry, config.max_frame_bytes as usize),
            saved,
            entry,
            config,
            folders: workspace.folders(),
            outbox: Vec::new(),
            lease,
        })
    }

    /// Start the server and initialize it. Saved only once initialized.
    pub fn start(
        key: &str,
        entry: &'a Entry,
        config: &'a Config,
        workspace: &Workspace,
        lease: &'a Lease,
    ) -> Result<Self, Fault> {
        let spec = SpawnSpec {
            argv: entry.argv.clone(),
            cwd: workspace.process_path.clone(),
            env: Vec::new(),
            stdin: Input::Pipe,
            stdout: Output::Pipe,
            stderr: Output::Collect(Collect {
                tail_bytes: config.max_stderr_bytes,
                head_bytes: 0,
                spill: None,
            }),
            grace_ms: config.grace_ms,
            // Servers leave temporary directories behind (typescript-language-server two per
            // start); a private TMPDIR goes with the server.
            private_tmp: true,
        };
        let process: Process = subprocess::spawn(&spec)
            .map_err(|e| Fault::Died(format!("cannot start {}: {} ({})", entry.argv[0], e.message, e.code)))?;
        // The server outlives this call: later queries attach to it until it idles out.
        match config.idle_timeout_ms {
            0 => process.detach(),
            idle_ms => process.detach_until_idle(idle_ms, Some(&farewell(config))),
        }
        let saved = Saved {
            process: process.id(),
            pid: process.pid(),
            encoding: Encoding::Utf16,
            next_id: 1,
            activity: Activity::started(now_ms()),
            stale: BTreeSet::new(),
            carry: false,
        };
        let mut connection = Self {
            key: key.to_owned(),
            transport: Transport::new(process, Vec::new(), config.max_frame_bytes as usize),
            saved,
            entry,
            config,
            folders: workspace.folders(),
            outbox: Vec::new(),
            lease,
        };
        if let Err(fault) = connection.initialize(workspace) {
            connection.transport.process.terminate();
            return Err(fault);
        }
        connection.save();
        Ok(connection)
    }

    fn initialize(&mut self, workspace: &Workspace) -> Result<(), Fault> {
        let params = json!({
            "processId": null,
            "clientInfo": {"name": "seam"},
            "rootUri": workspace.uri,
            "rootPath": workspace.root,
            "workspaceFolders": self.folders,
            "initializationOptions": self.entry.initialization_options,
            "capabilities": {
                "general": {"positionEncodings": self.config.position_encodings},
                "window": {"workDoneProgress": true},
                "workspace": {"configuration": true, "workspaceFolders": true, "applyEdit": false},
                "textDocument": {
                    "synchronization": {"didSave": false, "dynamicRegistration": false},
                    "hover": {"contentFormat": ["markdown", "plaintext"]},
                    "definition": {"linkSupport": true},
                    "implementation": {"linkSupport": true},
                    "references": {},
                },
                "experimental": {"serverStatusNotification": true},
            },
        });
        let deadline = now_ms() + u64::from(self.config.request_timeout_ms);
        let result = self.request("initialize", params, deadline)?;
        let name = result.pointer("/capabilities/positionEncoding").and_then(Value::as_str);
        self.saved.encoding = Encoding::from_lsp(name)
            .ok_or_else(|| Fault::Broken(format!("the server chose an unknown position encoding {name:?}")))?;
        self.notify("initialized", json!({}))
    }

    pub fn notify(&self, method: &str, params: impl Serialize) -> Result<(), Fault> {
        self.transport.send(&message::notification(method, params))
    }

    /// A notification sent in the same write as the next request.
    pub fn notify_with_next_request(&mut self, method: &str, params: impl Serialize) {
        self.outbox.push(message::notification(method, params));
    }

    /// Send a request and wait for its answer, serving what the server asks meanwhile. A
    /// request left unanswered at the deadline is cancelled and its answer dropped later.
    pub fn request(&mut self, method: &str, params: impl Serialize, deadline_ms: u64) -> Result<Value, Fault> {
        let id = self.saved.next_id;
        self.saved.next_id += 1;
        let mut bodies = std::mem::take(&mut self.outbox);
        bodies.push(message::request(id, method, params));
        self.transport.send_all(&bodies)?;
        loop {
            let gone = match self.receive(deadline_ms) {
                Ok(Some(frame)) => {
                    if let Some(answer) = self.dispatch(&frame, id)? {
                        return answer;
                    }
                    continue;
                }
                Ok(None) => Fault::Timeout(format!("{method} got no answer in time")),
                Err(Fault::Cancelled) => Fault::Cancelled,
                Err(fault) => return Err(fault),
            };
            // Nobody waits for this answer any more: drop it when it comes.
            self.saved.stale.insert(id);
            let _ = self.notify("$/cancelRequest", json!({"id": id}));
            return Err(gone);
        }
    }

    /// Serve the server's messages until `until_ms`.
    pub fn pump(&mut self, until_ms: u64) -> Result<(), Fault> {
        while let Some(frame) = self.receive(until_ms)? {
            // No request of ours is outstanding: id 0 is never used.
            self.dispatch(&frame, 0)?;
        }
        Ok(())
    }

    /// Wait while the server reports work in progress (indexing), up to `deadline_ms`. True
    /// when it is idle.
    pub fn settle(&mut self, deadline_ms: u64) -> Result<bool, Fault> {
        // Take in what arrived since the last call first.
        self.pump(now_ms())?;
        if self.saved.activity.busy() {
            let message = format!("waiting for {} to finish its work (indexing)", self.entry.id);
            context::progress(0.0, None, Some(&message));
        }
        while self.saved.activity.busy() {
            if now_ms() >= deadline_ms {
                return Ok(false);
            }
            if let Some(frame) = self.receive(deadline_ms)? {
                self.dispatch(&frame, 0)?;
            }
        }
        Ok(true)
    }

    /// The next message's body before `deadline_ms`. Long waits go in slices: between them the
    /// lease is renewed and a cancelled call stops waiting.
    fn receive(&mut self, deadline_ms: u64) -> Result<Option<Vec<u8>>, Fault> {
        // A frame already read takes no clock reading, renewal or wait (each a crossing).
        if let Some(message) = self.transport.buffered()? {
            return Ok(Some(message));
        }
        loop {
            let now = now_ms();
            self.lease.keep(now);
            if let Some(message) = self.transport.receive(deadline_ms.min(now + SLICE_MS))? {
                return Ok(Some(message));
            }
            if now_ms() >= deadline_ms {
                return Ok(None);
            }
            if context::cancelled() {
                return Err(Fault::Cancelled);
            }
        }
    }

    /// Handle one message: answer requests, account for notifications, and return the answer
    /// to request `awaited` when this is it.
    fn dispatch(&mut self, frame: &[u8], awaited: u64) -> Result<Option<Result<Value, Fault>>, Fault> {
        let message = Incoming::parse(frame).map_err(|why| Fault::Broken(format!("the server sent {why}")))?;
        match (message.method(), message.id) {
            (Some(method), Some(id)) => {
                let settings: Value = serde_json::from_str(self.entry.settings.get()).unwrap_or(Value::Null);
                let id = id.get();
                let reply = match server_requests::answer(&method, &message.params(), &settings, &self.folders) {
                    Ok(result) => format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{result}}}"#),
                    Err((code, text)) => {
                        let error = json!({"code": code, "message": text});
                        format!(r#"{{"jsonrpc":"2.0","id":{id},"error":{error}}}"#)
                    }
                };
                self.transport.send(&reply)?;
            }
            (Some(method), None) => {
                // Only work-done progress and server status change what a query waits for.
                if Activity::watches(&method) {
                    self.saved.activity.observe(&method, &message.params(), now_ms());
                }
            }
            (None, Some(_)) => {
                let id = message.numeric_id().unwrap_or(u64::MAX);
                if id == awaited {
                    return Ok(Some(match message.error {
                        Some(error) => {
                            let error: Value = serde_json::from_str(error.get()).unwrap_or(Value::Null);
                            Err(Fault::Answered(
                                error.get("code").and_then(Value::as_i64).unwrap_or(0),
                                error
                                    .get("message")
                                    .and_then(Value::as_str)
                                    .unwrap_or("unknown error")
                                    .to_owned(),
                            ))
                        }
                        None => Ok(message.result()),
                    }));
                }
                self.saved.stale.remove(&id);
            }
            (None, None) => {
                return Err(Fault::Broken(
                    "a message that is neither request, notification nor response".into(),
                ));
            }
        }
        Ok(None)
    }

    /// True when too many requests went unanswered: the server is wedged.
    pub fn overloaded(&self) -> bool {
        self.saved.stale.len() >= self.config.max_pending_requests as usize
    }

    pub fn save(&mut self) {
        let carry = self.transport.carry();
        if !carry.is_empty() {
            state::set(&carry_key(&self.key), carry);
        } else if self.saved.carry {
            state::delete(&carry_key(&self.key));
        }
        self.saved.carry = !carry.is_empty();
        let json = serde_json::to_vec(&self.saved).expect("connection state serializes");
        state::set(&saved_key(&self.key), &json);
    }

    pub fn stderr_tail(&self) -> String {
        self.transport.stderr_tail()
    }

    /// shutdown, exit, a bounded wait, then managed termination of the whole tree.
    pub fn shut_down(mut self) {
        let timeout = u64::from(self.config.shutdown_timeout_ms);
        let deadline = now_ms() + timeout;
        if self.request("shutdown", Value::Null, deadline).is_ok() {
            let _ = self.notify("exit", Value::Null);
            self.transport.process.wait(Some(left(deadline)));
        }
        self.transport.process.terminate();
        state::delete(&saved_key(&self.key));
        state::delete(&carry_key(&self.key));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::framing::Decoder;

    #[test]
    fn an_idle_server_is_told_shutdown_then_exit_within_the_shutdown_timeout() {
        let config = Config::default();
        let farewell = farewell(&config);
        assert_eq!(farewell.wait_ms, config.shutdown_timeout_ms);
        let mut decoder = Decoder::default();
        decoder.push(&farewell.stdin);
        let mut messages = Vec::new();
        while let Some(frame) = decoder.next_frame(1024).expect("well framed") {
            messages.push(serde_json::from_slice::<Value>(&frame).expect("JSON"));
        }
        assert_eq!(
            messages,
            [
                json!({"jsonrpc": "2.0", "id": 0, "method": "shutdown", "params": null}),
                json!({"jsonrpc": "2.0", "method": "exit", "params": null}),
            ]
        );
    }
}
