//! Background jobs on real processes: bash `run_in_background` → jobs-local over bash-local and
//! subprocess-local, read, listed and killed with the job_* tools from later calls.

use crate::common::{
    batch, default_world, eventually, first_text, live_batch, outside_tmp, processes_with, sleep_runs, unique_seconds,
    world,
};
use crate::sandbox_support::kernel_lacks;
use crate::terminal_support::Agent;
use serde_json::json;
use std::time::Duration;

const LONG: Duration = Duration::from_secs(20);

/// Starts `command` as a background job and returns its id.
fn start(agent: &Agent<'_>, command: &str) -> String {
    let result = agent.call("bash", json!({"command": command, "run_in_background": true}));
    let text = result.text();
    assert!(!result.is_error, "{text}");
    let id = text
        .split_whitespace()
        .find(|w| w.starts_with("job-"))
        .expect("a job id");
    id.trim_end_matches('.').to_string()
}

/// job_output from `offset`, after waiting for the job to end.
fn output_when_ended(agent: &Agent<'_>, id: &str, offset: u64) -> String {
    let result = agent.call(
        "job_output",
        json!({"job_id": id, "offset": offset, "wait_ms": LONG.as_millis() as u64}),
    );
    assert!(!result.is_error, "{}", result.text());
    result.text()
}

/// The number after `name=` in `text`.
fn number_after(text: &str, name: &str) -> u32 {
    let rest = &text[text.find(name).unwrap_or_else(|| panic!("no {name} in {text}")) + name.len()..];
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits
        .parse()
        .unwrap_or_else(|_| panic!("no number after {name} in {text}"))
}

/// The process is gone, not even a zombie: its parent reaped it.
fn reaped(pid: u32) -> bool {
    !std::path::Path::new(&format!("/proc/{pid}")).exists()
}

fn parent_of(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let (_, rest) = stat.rsplit_once(')')?;
    rest.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn a_jobs_output_survives_its_call_and_a_later_call_sees_all_of_it_and_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let world = default_world(dir.path());
    let a = Agent::new(&world, "a");
    let id = start(
        &a,
        "echo pid=$$ ppid=$PPID; for i in 1 2 3; do echo $i; sleep 0.3; done",
    );

    let text = output_when_ended(&a, &id, 0);
    assert!(text.contains("1\n2\n3\n[") && text.contains("done"), "{text}");
    assert!(text.contains("end of output"), "{text}");
    let offset = text.find("1\n2\n3").unwrap() as u64;
    let rest = output_when_ended(&a, &id, offset);
    assert!(
        rest.starts_with("1\n2\n3\n[") && rest.contains("end of output"),
        "{rest}"
    );

    let list = a.call("job_list", json!({})).text();
    assert!(list.starts_with(&format!("{id} done bash: echo pid=")), "{list}");
    // The shell and its supervisor were reaped once the job ended: no zombie is left.
    let (shell, supervisor) = (number_after(&text, "pid="), number_after(&text, "ppid="));
    assert!(
        eventually(LONG, || reaped(shell) && reaped(supervisor)),
        "{shell} or {supervisor} left behind"
    );
}

/// Output that slid out of the retained window is not lost: the read says where all of it is.
#[test]
fn a_read_past_the_retained_output_names_the_file_holding_all_of_it() {
    let dir = tempfile::tempdir().unwrap();
    let world = default_world(dir.path());
    let a = Agent::new(&world, "a");
    let id = start(&a, "seq 1 100000");
    let text = output_when_ended(&a, &id, 0);
    let note = "were dropped from the retained output; the output is saved in ";
    let path = text
        .split(note)
        .nth(1)
        .and_then(|rest| rest.split([',', ';', ']']).next())
        .unwrap_or_else(|| {
            panic!(
                "a lossy read names the spill file: {}",
                &text[text.len().saturating_sub(300)..]
            )
        });
    let spilled = std::fs::read_to_string(path).expect("the spill file is readable");
    assert_eq!(spilled.lines().count(), 100_000);
    assert!(spilled.starts_with("1\n2\n") && spilled.ends_with("\n100000\n"));
}

/// A spill file cut at its cap is not offered as all of the output: the read says how much it has.
#[test]
fn a_read_past_the_retained_output_says_how_much_a_capped_spill_file_holds() {
    let dir = tempfile::tempdir().unwrap();
    let world = world(
        "tools = [\"tool-bash\", \"tool-jobs\"]\n[providers]\nsubprocess = \"subprocess-local\"\n\
         shell = \"bash-local\"\njobs = \"jobs-local\"\npolicy = \"sandbox-policy\"\n\
         approval = \"approval-never\"\n[config.bash-local]\nmax_spill_bytes = 100000\n",
        dir.path(),
    );
    let a = Agent::new(&world, "a");
    let id = start(&a, "seq 1 200000");
    let text = output_when_ended(&a, &id, 0);
    let note = "were dropped from the retained output; only the first 100000 bytes of the output are saved, in ";
    let path = text
        .split(note)
        .nth(1)
        .and_then(|rest| rest.split(';').next())
        .unwrap_or_else(|| panic!("{}", &text[text.len().saturating_sub(300)..]));
    let spilled = std::fs::read(path).expect("the spill file is readable");
    assert_eq!(spilled.len(), 100_000);
    assert!(spilled.starts_with(b"1\n2\n3\n"));
}

/// A job that ended is kept for its output, not its process: however many there are, the host
/// holds no descriptor for them (a long session would run out).
#[test]
fn ended_jobs_hold_no_descriptor_in_the_host() {
    use std::io::{BufRead, Write};
    let dir = tempfile::tempdir().unwrap();
    let (mut seam, mut input, mut answers) = live_batch(dir.path());
    let mut call = |tool: &str, args: serde_json::Value| {
        writeln!(input, "{}", json!({"tool": tool, "args": args})).unwrap();
        let mut line = String::new();
        answers.read_line(&mut line).unwrap();
        line
    };
    let mut run_job = |n: usize| {
        let started = call(
            "bash",
            json!({"command": format!("echo {n}"), "run_in_background": true}),
        );
        let id = started
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
            .find(|w| w.starts_with("job-"))
            .unwrap_or_else(|| panic!("{started}"))
            .to_owned();
        let output = call("job_output", json!({"job_id": id, "wait_ms": LONG.as_millis() as u64}));
        assert!(output.contains("end of output"), "{output}");
    };
    let descriptors = || std::fs::read_dir(format!("/proc/{}/fd", seam.id())).unwrap().count();
    run_job(0);
    let before = descriptors();
    for n in 1..=20 {
        run_job(n);
    }
    assert!(
        eventually(LONG, || descriptors() <= before),
        "{} descriptors after 20 more ended jobs, {before} before",
        descriptors()
    );
    drop(input);
    assert!(seam.wait().unwrap().success());
}

#[test]
fn killing_a_job_leaves_no_descendant_and_no_zombie() {
    let dir = tempfile::tempdir().unwrap();
    let world = default_world(dir.path());
    let a = Agent::new(&world, "a");
    let (detached, orphan, foreground) = (unique_seconds(1000), unique_seconds(1001), unique_seconds(1002));
    let id = start(
        &a,
        &format!("setsid sleep {detached} & (sleep {orphan} &); sleep {foreground}; echo never"),
    );
    let markers = [&detached, &orphan, &foreground];
    // `bash -c` itself shows every marker; each sleep shows its own.
    let running = || markers.iter().all(|m| processes_with(m).len() >= 2);
    assert!(eventually(LONG, running), "the job's processes did not start");
    let mut pids: Vec<u32> = markers
        .iter()
        .flat_map(|m| processes_with(m))
        .map(|(pid, _)| pid)
        .collect();
    pids.sort_unstable();
    pids.dedup();
    let parents: Vec<u32> = pids
        .iter()
        .filter_map(|&pid| parent_of(pid))
        .filter(|&p| p != std::process::id())
        .collect();

    let killed = a.call("job_kill", json!({"job_id": id}));
    assert!(
        killed.text().starts_with(&format!("Stopped: {id} killed")),
        "{}",
        killed.text()
    );
    let everything = pids.iter().chain(&parents).copied().collect::<Vec<_>>();
    assert!(
        eventually(LONG, || everything.iter().all(|&pid| reaped(pid))),
        "left behind: {:?}",
        everything.iter().filter(|&&pid| !reaped(pid)).collect::<Vec<_>>()
    );
    let list = a.call("job_list", json!({})).text();
    assert!(list.starts_with(&format!("{id} killed")), "{list}");
    let again = a.call("job_kill", json!({"job_id": id})).text();
    assert!(
        again.starts_with(&format!("Nothing to stop, it had already ended: {id} killed")),
        "{again}"
    );
}

#[test]
fn another_agents_job_is_foreign() {
    let dir = tempfile::tempdir().unwrap();
    let world = default_world(dir.path());
    let (alice, bob) = (Agent::new(&world, "alice"), Agent::new(&world, "bob"));
    let marker = unique_seconds(1003);
    let id = start(&alice, &format!("sleep {marker}"));
    // The job's shell may not have exec'd `sleep` yet when its start returns.
    assert!(eventually(LONG, || sleep_runs(&marker)));
    for (tool, args) in [
        ("job_output", json!({"job_id": id})),
        ("job_kill", json!({"job_id": id})),
    ] {
        let result = bob.call(tool, args);
        assert_eq!(result.code.as_deref(), Some("FOREIGN_JOB"), "{tool}: {}", result.text());
    }
    assert_eq!(bob.call("job_list", json!({})).text(), "No background jobs.");
    let missing = alice.call("job_output", json!({"job_id": "job-99"}));
    assert_eq!(missing.code.as_deref(), Some("JOB_NOT_FOUND"), "{}", missing.text());
    assert!(sleep_runs(&marker), "bob's attempts left alice's job alone");
    alice.call("job_kill", json!({"job_id": id}));
    assert!(eventually(LONG, || processes_with(&marker).is_empty()));
}

#[test]
fn a_released_agent_is_not_live_and_its_jobs_are_gone() {
    let dir = tempfile::tempdir().unwrap();
    let world = default_world(dir.path());
    let (alice, bob) = (Agent::new(&world, "alice"), Agent::new(&world, "bob"));
    let marker = unique_seconds(1004);
    start(&alice, &format!("sleep {marker}"));
    let bobs = start(&bob, "sleep 30");

    let released = world.release_agent("alice");
    let jobs = released.iter().find(|r| r.provider == "jobs-local");
    assert_eq!(jobs.map(|r| r.closed.clone()), Some(Ok(1)), "{released:?}");
    assert!(
        released
            .iter()
            .any(|r| r.provider == "terminal-bash" && r.closed.is_ok()),
        "{released:?}"
    );
    assert!(eventually(LONG, || processes_with(&marker).is_empty()));

    let touched = dir.path().join("touched");
    for (tool, args) in [
        ("job_list", json!({})),
        ("job_output", json!({"job_id": "job-1"})),
        (
            "bash",
            json!({"command": format!("touch {}", touched.display()), "run_in_background": true}),
        ),
        ("terminal_open", json!({})),
    ] {
        let result = alice.call(tool, args);
        assert_eq!(
            result.code.as_deref(),
            Some("OWNER_NOT_LIVE"),
            "{tool}: {}",
            result.text()
        );
    }
    assert!(!touched.exists(), "a released agent's background command never runs");
    // Another agent is untouched.
    let list = bob.call("job_list", json!({})).text();
    assert!(list.starts_with(&format!("{bobs} running")), "{list}");
    bob.call("job_kill", json!({"job_id": bobs}));
}

#[test]
fn each_ended_job_is_noticed_exactly_once_whatever_else_observed_it() {
    let dir = tempfile::tempdir().unwrap();
    let world = default_world(dir.path());
    let a = Agent::new(&world, "a");
    let ok = start(&a, "sleep 0.3");
    let failing = start(&a, "sleep 0.3; exit 3");
    let notice = |id: &str| format!("[background job {id} ended:");

    // Concurrent calls race to report the ends; every result is kept.
    let texts: Vec<String> = std::thread::scope(|scope| {
        let callers: Vec<_> = (0..4)
            .map(|_| {
                scope.spawn(|| {
                    let mut seen = Vec::new();
                    let both_ended = eventually(LONG, || {
                        let text = a.call("job_list", json!({})).text();
                        let ended = !text.contains("running");
                        seen.push(text);
                        ended
                    });
                    assert!(both_ended, "{seen:?}");
                    seen
                })
            })
            .collect();
        callers.into_iter().flat_map(|c| c.join().unwrap()).collect()
    });
    let mut all = texts.join("\n");
    all.push_str(&output_when_ended(&a, &ok, 0));
    all.push_str(&a.call("bash", json!({"command": "echo later"})).text());
    all.push_str(&a.call("job_list", json!({})).text());
    assert_eq!(all.matches(&notice(&ok)).count(), 1, "{all}");
    assert_eq!(all.matches(&notice(&failing)).count(), 1, "{all}");
    assert!(
        all.contains(&format!("{} failed (exit code 3);", notice(&failing))),
        "{all}"
    );
}

#[test]
fn the_batch_mode_drives_a_job_from_start_to_output() {
    let dir = tempfile::tempdir().unwrap();
    let marker = unique_seconds(1005);
    let lines = [
        json!({"tool": "bash", "args": {"command": "echo begin; sleep 0.2; echo end", "run_in_background": true}}),
        json!({"tool": "bash", "args": {"command": format!("sleep {marker}"), "run_in_background": true}}),
        json!({"tool": "job_output", "args": {"job_id": "job-1", "wait_ms": 20000}}),
        json!({"tool": "job_list", "args": {}}),
    ];
    let results = batch(dir.path(), &lines);
    let text = |i: usize| first_text(&results[i]);
    assert_eq!(results.len(), lines.len(), "{results:?}");
    assert!(text(0).contains("job-1") && text(1).contains("job-2"), "{results:?}");
    assert!(
        text(2).starts_with("begin\nend\n[job-1: done;") && text(2).contains("end of output"),
        "{}",
        text(2)
    );
    assert!(
        text(3).contains("job-1 done bash") && text(3).contains("job-2 running bash"),
        "{}",
        text(3)
    );
    // The batch's end released the session's agent (the host's exit would end it too): no
    // process of the job is left.
    assert!(eventually(LONG, || processes_with(&marker).is_empty()));
}

#[test]
fn a_background_command_is_confined_like_a_foreground_one() {
    if let (Some(bwrap), Some(landlock)) = (kernel_lacks("bwrap"), kernel_lacks("landlock")) {
        eprintln!("skipped: no sandbox runner works here ({bwrap}; {landlock})");
        return;
    }
    let dir = outside_tmp();
    let toml = "sandbox = \"read-only\"\ntools = [\"tool-bash\", \"tool-jobs\"]\n[providers]\n\
                subprocess = \"subprocess-local\"\nshell = \"bash-sandbox\"\njobs = \"jobs-local\"\n\
                sandbox = \"sandbox-local\"\npolicy = \"sandbox-policy\"\napproval = \"approval-never\"\n";
    let world = world(toml, dir.path());
    let a = Agent::new(&world, "a");
    let made = dir.path().join("made");
    let id = start(&a, &format!("echo trying; touch {}", made.display()));
    let text = output_when_ended(&a, &id, 0);
    assert!(text.contains("trying") && text.contains("failed (exit code"), "{text}");
    assert!(!made.exists(), "the read-only sandbox let a background command write");
}

#[test]
fn an_mcp_client_starts_a_job_and_nothing_of_it_outlives_the_session() {
    let dir = tempfile::tempdir().unwrap();
    let marker = unique_seconds(1006);
    let out = crate::mcp::client(
        "call",
        dir.path(),
        None,
        &[json!({"command": format!("sleep {marker}"), "run_in_background": true})],
    );
    let started = first_text(&out[0]["result"]);
    assert!(started.starts_with("Started background job job-1."), "{started}");
    // The client left: its agent was released and the server exited.
    assert!(eventually(LONG, || processes_with(&marker).is_empty()));
}
