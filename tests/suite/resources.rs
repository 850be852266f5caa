//! Resources cross the host's forwarding in every position: own and borrow, inside records,
//! lists, options and results; drops reach the provider.

use crate::common::*;

#[test]
fn resources_round_trip_through_a_third_party_seam() {
    let dir = tempfile::tempdir().unwrap();
    let toml = format!(
        "tools = [{:?}]\n[providers]\ncounter = {:?}\n",
        fixture("fixture-counter-tool").display().to_string(),
        fixture("fixture-counter").display().to_string()
    );
    let world = world(&toml, dir.path());
    let result = call(&world, "counter_roundtrip", serde_json::json!({}));
    assert!(!result.is_error, "{}", result.text());
    let text = result.text();
    for line in [
        "make=5",
        "named=a:7",
        "many=1,2,3",
        "maybe=Some(4)/None",
        "try=Ok(9)/Err(negative start)",
        "live=0",
    ] {
        assert!(text.lines().any(|l| l == line), "missing {line:?} in:\n{text}");
    }
    let before: u32 = text
        .lines()
        .find_map(|l| l.strip_prefix("live_before="))
        .and_then(|n| n.parse().ok())
        .expect("live_before line");
    assert!(before > 0, "handles were alive before the drops:\n{text}");
}
