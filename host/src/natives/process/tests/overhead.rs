use std::process::Command;
use std::time::{Duration, Instant};

use super::*;
use crate::natives::process::ProcessTable;

fn median_p90(mut v: Vec<Duration>) -> (Duration, Duration) {
    v.sort();
    (v[v.len() / 2], v[v.len() * 9 / 10])
}

fn run(label: &str) {
    let table = ProcessTable::new();
    let (mut std_t, mut null_t, mut coll_t, mut spawn_only) = (vec![], vec![], vec![], vec![]);
    for _ in 0..200 {
        let t = Instant::now();
        let st = Command::new(BASH).args(["-c", "true"]).status().unwrap();
        std_t.push(t.elapsed());
        assert!(st.success());

        let mut s = bash("true");
        s.stdout = OutputSpec::Null;
        s.stderr = OutputSpec::Null;
        let t = Instant::now();
        let p = table.spawn(s).unwrap();
        spawn_only.push(t.elapsed());
        assert_eq!(p.wait(None), Some(exited(0)));
        null_t.push(t.elapsed());
        table.forget(p.id());

        let t = Instant::now();
        let p = table.spawn(bash("true")).unwrap();
        assert_eq!(p.wait(None), Some(exited(0)));
        coll_t.push(t.elapsed());
        table.forget(p.id());
    }
    for (name, v) in [("std Command.status()", std_t), ("table null outputs", null_t), ("table collected outputs", coll_t), ("table spawn() return only", spawn_only)] {
        let (m, p90) = median_p90(v);
        println!("MEASURE [{label}] {name:28} median {:>8.3} ms  p90 {:>8.3} ms", m.as_secs_f64() * 1e3, p90.as_secs_f64() * 1e3);
    }
}

#[test]
fn overhead_measurement() {
    run("small host");
    let big: Vec<u8> = vec![1u8; 512 << 20];
    let touched: u64 = big.iter().step_by(4096).map(|&b| u64::from(b)).sum();
    run(&format!("host +512MiB touched ({touched} pages)"));
    drop(big);
}
