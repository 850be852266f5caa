//! Throwaway: spawn cost against host RSS (deleted before handing over).

use std::hint::black_box;
use std::time::Instant;

use super::*;
use crate::natives::process::ProcessTable;

fn vm_rss(pid: u32) -> String {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .filter(|l| l.starts_with("VmRSS") || l.starts_with("RssAnon") || l.starts_with("RssFile"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn measure(label: &str) {
    let started = Instant::now();
    let table = ProcessTable::new();
    eprintln!(
        "{label}: table (zygote fork) {:.3} ms",
        started.elapsed().as_secs_f64() * 1e3
    );
    for _ in 0..5 {
        finished(&table.spawn(bash("echo hi")).expect("spawn"));
    }
    let n = 60;
    let mut spawn_only = Vec::new();
    let mut total = Vec::new();
    for _ in 0..n {
        let mut s = bash("echo hi");
        s.stderr = OutputSpec::Merge;
        let started = Instant::now();
        let p = table.spawn(s).expect("spawn");
        let spawned = started.elapsed();
        finished(&p);
        total.push(started.elapsed().as_secs_f64() * 1e3);
        spawn_only.push(spawned.as_secs_f64() * 1e3);
    }
    let mut native = Vec::new();
    for _ in 0..n {
        let started = Instant::now();
        let out = std::process::Command::new("/usr/bin/bash")
            .args(["-c", "echo hi"])
            .output()
            .unwrap();
        assert_eq!(out.stdout, b"hi\n");
        native.push(started.elapsed().as_secs_f64() * 1e3);
    }
    eprintln!("{label}: zygote {}", vm_rss(table.zygote_pid().unwrap()));
    eprintln!("{label}: host {}", vm_rss(std::process::id()));
    let med = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        format!("med {:.3} min {:.3}", v[v.len() / 2], v[0])
    };
    eprintln!(
        "{label}: spawn() {} ms, spawn+wait {} ms, native bash echo (std Command) {} ms",
        med(&mut spawn_only),
        med(&mut total),
        med(&mut native)
    );
}

#[test]
#[ignore = "throwaway measurement"]
fn spawn_cost_against_host_rss() {
    measure("small host");
    let mut memory = vec![1u8; 512 << 20];
    for i in (0..memory.len()).step_by(4096) {
        memory[i] = 2;
    }
    black_box(&mut memory);
    measure("512 MiB host");
    black_box(&memory);
}

#[test]
#[ignore = "throwaway measurement"]
fn thread_spawn_cost() {
    let mut v = Vec::new();
    for _ in 0..2000 {
        let t = Instant::now();
        let h = std::thread::Builder::new().name("x".into()).spawn(|| ()).unwrap();
        let spawned = t.elapsed();
        h.join().unwrap();
        v.push((spawned.as_secs_f64() * 1e6, t.elapsed().as_secs_f64() * 1e6));
    }
    v.sort_by(|a, b| a.1.total_cmp(&b.1));
    eprintln!(
        "thread spawn {:.1} µs, spawn+join {:.1} µs (median)",
        v[1000].0, v[1000].1
    );
    let mut forks = Vec::new();
    for _ in 0..200 {
        let t = Instant::now();
        let table = ProcessTable::new();
        forks.push(t.elapsed().as_secs_f64() * 1e6);
        drop(table);
    }
    forks.sort_by(f64::total_cmp);
    eprintln!("table new (zygote fork) median {:.1} µs", forks[100]);
}
