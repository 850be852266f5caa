//! Crash safety of the atomic write: the real `seam` CLI writing a large file is killed with
//! SIGKILL at random moments, 200 times. The file is always entirely the old or entirely the
//! new content, and no temporary file shows in the directory listing: a killed writer's
//! staging directory is hidden (a dot name that listings through the fs seam skip) and the
//! next write removes it.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const KILLS: usize = 200;
/// Large enough that writing and syncing it takes a good share of a call.
const SIZE: usize = 8 << 20;
const STAGING_PREFIX: &str = ".seam-staging-";

/// xorshift64*: random moments without a dependency; the seed is printed for reruns.
struct Moments(u64);

impl Moments {
    fn next_below(&mut self, bound: Duration) -> Duration {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let x = self.0.wrapping_mul(0x2545_f491_4f6c_dd1d);
        bound.mul_f64((x >> 11) as f64 / (1u64 << 53) as f64)
    }
}

fn content(generation: usize) -> Vec<u8> {
    vec![b'a' + (generation % 26) as u8; SIZE]
}

/// Start `seam call --batch` writing `data` to `path`; the call arrives on stdin.
fn start_write(workspace: &Path, path: &Path, data: &[u8]) -> std::process::Child {
    let line = serde_json::json!({
        "tool": "write",
        "args": {"file_path": path, "content": String::from_utf8_lossy(data)},
    });
    let mut child = Command::new(env!("CARGO_BIN_EXE_seam"))
        .arg("--workspace")
        .arg(workspace)
        .args(["call", "--batch"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut line = line.to_string().into_bytes();
    line.push(b'\n');
    // A killed child closes the pipe under the writer: that error is expected.
    std::thread::spawn(move || {
        let _ = stdin.write_all(&line);
    });
    child
}

/// Entries of `dir`: (visible names, hidden names).
fn listing(dir: &Path) -> (Vec<String>, Vec<String>) {
    let names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.into_iter().partition(|name| !name.starts_with('.'))
}

#[test]
fn killing_the_writer_never_leaves_a_mixed_file_or_a_visible_temp_file() {
    let dir = tempfile::tempdir().unwrap();
    let workspace = std::fs::canonicalize(dir.path()).unwrap();
    let target = workspace.join("big.txt");
    std::fs::write(&target, content(0)).unwrap();

    // How long an uninterrupted write takes here, to spread the kills over it.
    let start = Instant::now();
    let status = start_write(&workspace, &target, &content(1)).wait().unwrap();
    assert!(status.success());
    let full = start.elapsed();
    assert_eq!(std::fs::read(&target).unwrap(), content(1));

    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64
        | 1;
    eprintln!("kill moments seed {seed:#x}, uninterrupted write {full:?}");
    let mut moments = Moments(seed);
    let mut on_disk = 1;
    let (mut published, mut interrupted_mid_write) = (0, 0);
    let mut staging_seen: Vec<String> = Vec::new();
    for kill in 0..KILLS {
        let generation = kill + 2;
        let mut child = start_write(&workspace, &target, &content(generation));
        std::thread::sleep(moments.next_below(full.mul_f64(1.2)));
        let _ = child.kill();
        let _ = child.wait();

        let now = std::fs::read(&target).unwrap();
        if now == content(generation) {
            published += 1;
            on_disk = generation;
        } else {
            assert!(
                now == content(on_disk),
                "kill {kill}: the file is neither the old nor the new content ({} bytes)",
                now.len()
            );
        }
        let (visible, hidden) = listing(&workspace);
        assert_eq!(visible, ["big.txt"], "kill {kill}: a temporary file is visible");
        assert!(
            hidden.iter().all(|name| name.starts_with(STAGING_PREFIX)),
            "kill {kill}: unexpected entries {hidden:?}"
        );
        // A staging directory this writer made: the kill landed between its mkdir and cleanup.
        interrupted_mid_write += usize::from(hidden.iter().any(|name| !staging_seen.contains(name)));
        staging_seen = hidden;
    }
    eprintln!("{published} of {KILLS} writes published; {interrupted_mid_write} killed with staging in place");
    assert!(
        interrupted_mid_write > 0,
        "no kill landed inside a write: the test proved nothing"
    );

    // The next write removes what killed writers left behind.
    let status = start_write(&workspace, &target, &content(0)).wait().unwrap();
    assert!(status.success());
    assert_eq!(std::fs::read(&target).unwrap(), content(0));
    let (visible, hidden) = listing(&workspace);
    assert_eq!((visible, hidden), (vec!["big.txt".to_string()], Vec::<String>::new()));
}
