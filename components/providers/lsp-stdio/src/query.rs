//! One query: route, read the document, take the connection's lease, make sure a server runs,
//! wait until it is not indexing, then transient open (didOpen version 1 → request →
//! didClose) and normalize. A server that died is replaced, and the query (always read-only)
//! asked once more on the fresh one.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{Value, json};

use crate::bindings::exports::seam::lsp::lsp::{Error, Location, Operation, QueryRequest, QueryResult};
use crate::bindings::seam::tool::context;
use crate::clock::now_ms;
use crate::config::Config;
use crate::connection::{self, Connection};
use crate::document::{self, Document, Workspace};
use crate::encoding::{self, Encoding};
use crate::errors;
use crate::lease::Lease;
use crate::normalize::{self, Site};
use crate::registry::{self, Entry};
use crate::transport::Fault;

/// JSON-RPC codes of a request the server dropped because its state moved on: ask again.
const CONTENT_MODIFIED: i64 = -32801;
const SERVER_CANCELLED: i64 = -32802;
/// Pause between asking again.
const RETRY_PAUSE_MS: u64 = 200;

pub fn run(request: &QueryRequest) -> Result<QueryResult, Error> {
    let config = Config::load()?;
    let table = registry::table(&config)?;
    let entry =
        registry::route(&table, &request.path).map_err(|refused| document::directory(request).unwrap_or(refused))?;
    if request.line == 0 || request.character == 0 {
        return Err(errors::error(
            errors::INVALID_POSITION,
            "line and character are 1-based",
        ));
    }
    let workspace = Workspace::open(&request.workspace)?;
    let document = Document::open(&workspace, &request.path, config.max_document_bytes)?;
    let line = encoding::line_of(&document.text, request.line - 1).ok_or_else(|| {
        let lines = document.text.split('\n').count();
        errors::error(
            errors::INVALID_POSITION,
            format!("line {} is past the end of the file ({lines} lines)", request.line),
        )
    })?;
    let length = encoding::length(line, Encoding::Utf16);
    if request.character - 1 > length {
        return Err(errors::error(
            errors::INVALID_POSITION,
            format!(
                "character {} is past the end of line {} ({length} UTF-16 units)",
                request.character, request.line
            ),
        ));
    }

    let ready_deadline = now_ms() + u64::from(config.ready_timeout_ms);
    let request_ms = u64::from(config.request_timeout_ms);
    let key = connection::pool_key(&entry.id, &workspace.target.key);
    let lease = Lease::acquire(&key, u64::from(config.ready_timeout_ms) + request_ms)?;
    if lease.took_over {
        connection::discard(&key);
    }
    let mut retried = false;
    loop {
        let mut live = match Connection::resume(&key, entry, &config, &workspace, &lease) {
            Some(live) => live,
            None => Connection::start(&key, entry, &config, &workspace, &lease).map_err(|f| failure(entry, f, ""))?,
        };
        match ask(&mut live, request, &document, line, ready_deadline, &config) {
            Ok(answer) => {
                live.save();
                let encoding = live.saved.encoding;
                drop(lease);
                return Ok(normalized(
                    request.operation,
                    &answer,
                    encoding,
                    &workspace,
                    &document,
                    &config,
                ));
            }
            Err(Fault::Died(_)) if !retried && !context::cancelled() => {
                retried = true;
                connection::discard(&key);
            }
            Err(fault) => {
                let stderr = live.stderr_tail();
                match fault {
                    Fault::Timeout(_) | Fault::Answered(..) | Fault::Cancelled if !live.overloaded() => live.save(),
                    _ => connection::discard(&key),
                }
                return Err(failure(entry, fault, &stderr));
            }
        }
    }
}

fn ask(
    live: &mut Connection<'_>,
    request: &QueryRequest,
    document: &Document,
    line: &str,
    ready_deadline: u64,
    config: &Config,
) -> Result<Value, Fault> {
    if !live.settle(ready_deadline)? {
        return Err(Fault::Timeout(format!(
            "the server was still busy (indexing) after {} ms",
            config.ready_timeout_ms
        )));
    }
    let text_document = json!({"uri": document.uri});
    live.notify_with_next_request("textDocument/didOpen", DidOpen::of(document));
    let character = encoding::convert(line, request.character - 1, Encoding::Utf16, live.saved.encoding);
    let mut params =
        json!({"textDocument": text_document, "position": {"line": request.line - 1, "character": character}});
    let method = match request.operation {
        Operation::GoToDefinition => "textDocument/definition",
        Operation::GoToImplementation => "textDocument/implementation",
        Operation::Hover => "textDocument/hover",
        Operation::FindReferences => {
            params["context"] = json!({"includeDeclaration": true});
            "textDocument/references"
        }
    };
    let answer = loop {
        let answer = live.request(method, params.clone(), now_ms() + u64::from(config.request_timeout_ms));
        let again = match &answer {
            Ok(value) => normalize::is_empty(value) && warming(live, config),
            Err(Fault::Answered(code, _)) => *code == CONTENT_MODIFIED || *code == SERVER_CANCELLED,
            Err(_) => false,
        };
        if !again || now_ms() + RETRY_PAUSE_MS >= ready_deadline {
            break answer;
        }
        live.pump(now_ms() + RETRY_PAUSE_MS)?;
        live.settle(ready_deadline)?;
    };
    live.notify("textDocument/didClose", json!({"textDocument": text_document}))?;
    answer
}

/// `textDocument/didOpen` params, serialized from the document without copying its text.
#[derive(Serialize)]
struct DidOpen<'a> {
    #[serde(rename = "textDocument")]
    text_document: TextDocumentItem<'a>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct TextDocumentItem<'a> {
    uri: &'a str,
    language_id: &'a str,
    version: u32,
    text: &'a str,
}

impl<'a> DidOpen<'a> {
    fn of(document: &'a Document) -> Self {
        Self {
            text_document: TextDocumentItem {
                uri: &document.uri,
                language_id: &document.language_id,
                // Transient: every query opens its own first version.
                version: 1,
                text: &document.text,
            },
        }
    }
}

/// A server idle for less than `warmup_ms` may not have begun its work yet: an empty answer
/// from it is not trusted.
fn warming(live: &Connection<'_>, config: &Config) -> bool {
    live.saved
        .activity
        .idle_since_ms
        .is_none_or(|since| now_ms().saturating_sub(since) < u64::from(config.warmup_ms))
}

fn failure(entry: &Entry, fault: Fault, stderr: &str) -> Error {
    let id = &entry.id;
    // A cancelled call also ends what it started (the server, when it was starting it).
    let fault = if context::cancelled() { Fault::Cancelled } else { fault };
    match fault {
        Fault::Died(why) => errors::error(errors::SERVER_FAILED, format!("language server {id} failed: {why}")),
        Fault::Broken(why) => errors::error(
            errors::SERVER_FAILED,
            format!("language server {id} broke the protocol: {why}{stderr}"),
        ),
        Fault::TooLarge(why) => errors::error(errors::TOO_LARGE, format!("language server {id}: {why}")),
        Fault::Timeout(why) => errors::error(errors::TIMEOUT, format!("language server {id}: {why}")),
        Fault::Cancelled => errors::error(errors::CANCELLED, format!("the query to {id} was cancelled")),
        Fault::Answered(code, why) => errors::error(
            errors::SERVER_FAILED,
            format!("language server {id} answered with error {code}: {why}"),
        ),
    }
}

fn normalized(
    operation: Operation,
    answer: &Value,
    encoding: Encoding,
    workspace: &Workspace,
    document: &Document,
    config: &Config,
) -> QueryResult {
    if operation == Operation::Hover {
        return QueryResult {
            locations: Vec::new(),
            hover: normalize::hover_markdown(answer),
        };
    }
    let document_path = crate::uri::file_path(&document.uri);
    let mut texts: BTreeMap<String, Option<String>> = BTreeMap::new();
    let locations = normalize::sites(answer)
        .into_iter()
        .map(|site| {
            // Columns back to UTF-16, which needs the line's text when the server spoke another encoding.
            let utf16 = |line: u32, column: u32, texts: &mut BTreeMap<String, Option<String>>| {
                if encoding == Encoding::Utf16 {
                    return column;
                }
                let text = texts.entry(site.path.clone()).or_insert_with(|| {
                    if Some(&site.path) == document_path.as_ref() {
                        Some(document.text.clone())
                    } else {
                        document::read_path(&site.path, config.max_document_bytes)
                    }
                });
                match text.as_deref().and_then(|t| encoding::line_of(t, line)) {
                    Some(text) => encoding::convert(text, column, encoding, Encoding::Utf16),
                    None => column,
                }
            };
            let Site {
                path,
                start_line,
                start_character,
                end_line,
                end_character,
            } = site.clone();
            Location {
                path: crate::uri::relative_to(&path, &workspace.root),
                start_line: start_line + 1,
                start_character: utf16(start_line, start_character, &mut texts) + 1,
                end_line: end_line + 1,
                end_character: utf16(end_line, end_character, &mut texts) + 1,
            }
        })
        .collect();
    QueryResult { locations, hover: None }
}
