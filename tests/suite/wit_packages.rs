//! Every WIT package under `wit/` parses, resolves against the others, and declares the worlds
//! and conventions the host relies on.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use wit_parser::{PackageId, Resolve, SourceMap, Type, TypeDefKind, TypeOwner, UnresolvedPackageGroup, WorldItem};

/// Packages that must exist, by folder.
const PACKAGES: &[&str] = &[
    "approval",
    "fs",
    "host",
    "jobs",
    "lsp",
    "sandbox",
    "shell",
    "subprocess",
    "terminal",
    "tool",
];

/// (world, interfaces it must export).
const WORLDS: &[(&str, &[&str])] = &[
    ("seam:tool/plugin", &["seam:tool/tool"]),
    ("seam:subprocess/provider", &["seam:subprocess/subprocess"]),
    ("seam:shell/provider", &["seam:shell/shell"]),
    ("seam:fs/provider", &["seam:fs/fs"]),
    ("seam:sandbox/provider", &["seam:sandbox/sandbox"]),
    (
        "seam:sandbox/policy-provider",
        &["seam:sandbox/policy", "seam:sandbox/escalation"],
    ),
    ("seam:terminal/provider", &["seam:terminal/terminal"]),
    ("seam:lsp/provider", &["seam:lsp/lsp"]),
    ("seam:jobs/provider", &["seam:jobs/jobs"]),
    ("seam:approval/provider", &["seam:approval/approval"]),
    ("seam:approval/asker-provider", &["seam:approval/asker"]),
];

/// Host natives that must exist.
const HOST_INTERFACES: &[&str] = &["process", "pty", "fsio", "sandbox-launch", "state", "log"];

const VERSION: &str = "0.1.0";

fn wit_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../wit")
}

fn package_dirs() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(wit_dir())
        .expect("read wit/")
        .map(|entry| entry.expect("wit/ entry").path())
        .filter(|path| path.is_dir())
        .collect();
    dirs.sort();
    dirs
}

fn folder_name(dir: &Path) -> String {
    dir.file_name()
        .and_then(|name| name.to_str())
        .expect("utf-8 folder name")
        .to_owned()
}

/// Parse one folder as one package (every `*.wit` file in it), rendering errors with locations.
fn parse_folder(dir: &Path) -> Result<UnresolvedPackageGroup, String> {
    let mut map = SourceMap::new();
    map.push_dir(dir).map_err(|e| format!("{e:#}"))?;
    map.parse().map_err(|(map, e)| e.render(&map))
}

/// `seam:fs` of a package name, without the version.
fn short_name(name: &wit_parser::PackageName) -> String {
    format!("{}:{}", name.namespace, name.name)
}

/// Every folder parsed on its own, then pushed into one `Resolve` in dependency order.
fn load_all() -> (Resolve, BTreeMap<String, PackageId>) {
    let mut failures = Vec::new();
    let mut groups = BTreeMap::new();
    for dir in package_dirs() {
        let folder = folder_name(&dir);
        match parse_folder(&dir) {
            Ok(group) => {
                let name = &group.main.name;
                let expected = format!("seam:{folder}");
                if short_name(name) != expected {
                    failures.push(format!(
                        "wit/{folder}: package `{name}` should be `{expected}@{VERSION}`"
                    ));
                }
                if name.version.as_ref().map(ToString::to_string).as_deref() != Some(VERSION) {
                    failures.push(format!("wit/{folder}: package `{name}` is not @{VERSION}"));
                }
                if !group.nested.is_empty() {
                    failures.push(format!("wit/{folder}: nested packages are not used in seam"));
                }
                groups.insert(short_name(name), (folder, group));
            }
            Err(e) => failures.push(format!("wit/{folder} does not parse:\n{e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));

    let mut resolve = Resolve::default();
    let mut ids = BTreeMap::new();
    while !groups.is_empty() {
        // Every package whose dependencies are all loaded already; none ready means a missing
        // package or a cycle.
        let ready: Vec<String> = groups
            .iter()
            .filter(|(_, (_, group))| {
                group
                    .main
                    .foreign_deps
                    .keys()
                    .all(|dep| ids.contains_key(&short_name(dep)))
            })
            .map(|(name, _)| name.clone())
            .collect();
        if ready.is_empty() {
            let pending: Vec<String> = groups
                .iter()
                .map(|(name, (_, group))| {
                    let deps: Vec<String> = group.main.foreign_deps.keys().map(ToString::to_string).collect();
                    format!("{name} (needs {})", deps.join(", "))
                })
                .collect();
            panic!("missing packages or a dependency cycle among: {}", pending.join("; "));
        }
        for name in ready {
            let (folder, group) = groups.remove(&name).expect("ready package");
            match resolve.push_group(group) {
                Ok(id) => {
                    ids.insert(name, id);
                }
                Err(e) => panic!("wit/{folder} does not resolve:\n{}", e.render(&resolve.source_map)),
            }
        }
    }
    (resolve, ids)
}

fn interface_names(resolve: &Resolve, pkg: PackageId) -> BTreeSet<String> {
    resolve.packages[pkg].interfaces.keys().cloned().collect()
}

/// `seam:fs/fs` for an interface id (version dropped).
fn interface_path(resolve: &Resolve, id: wit_parser::InterfaceId) -> String {
    let iface = &resolve.interfaces[id];
    let pkg = iface.package.expect("interface in a package");
    format!(
        "{}/{}",
        short_name(&resolve.packages[pkg].name),
        iface.name.as_deref().expect("named interface")
    )
}

#[test]
fn every_package_parses_and_resolves() {
    let (_resolve, ids) = load_all();
    for folder in PACKAGES {
        assert!(
            ids.contains_key(&format!("seam:{folder}")),
            "wit/{folder} (seam:{folder}@{VERSION}) is missing"
        );
    }
}

#[test]
fn expected_worlds_exist_and_export_their_seams() {
    let (resolve, ids) = load_all();
    for (world, exports) in WORLDS {
        let (pkg, world_name) = world.split_once('/').expect("pkg/world");
        let pkg_id = *ids
            .get(pkg)
            .unwrap_or_else(|| panic!("package {pkg} for world {world} is missing"));
        let world_id = resolve
            .select_world(&[pkg_id], Some(world_name))
            .unwrap_or_else(|e| panic!("world {world}: {e:#}"));
        let exported: BTreeSet<String> = resolve.worlds[world_id]
            .exports
            .values()
            .filter_map(|item| match item {
                WorldItem::Interface { id, .. } => Some(interface_path(&resolve, *id)),
                _ => None,
            })
            .collect();
        for export in *exports {
            assert!(
                exported.contains(*export),
                "world {world} does not export {export} (exports: {exported:?})"
            );
        }
    }
}

#[test]
fn host_natives_are_self_contained_and_imported_only_by_providers() {
    let (resolve, ids) = load_all();
    let host = ids["seam:host"];
    let names = interface_names(&resolve, host);
    for iface in HOST_INTERFACES {
        assert!(names.contains(*iface), "seam:host/{iface} is missing");
    }
    assert!(
        resolve.packages[host].worlds.is_empty(),
        "seam:host defines interfaces only"
    );

    // seam:host sits at the bottom: its natives use no other package's types.
    for id in resolve.packages[host].interfaces.values() {
        for ty in resolve.interfaces[*id].types.values() {
            if let TypeDefKind::Type(Type::Id(other)) = resolve.types[*ty].kind
                && let TypeOwner::Interface(owner) = resolve.types[other].owner
            {
                assert_eq!(
                    resolve.interfaces[owner].package,
                    Some(host),
                    "seam:host/{} uses a type from {}",
                    resolve.interfaces[*id].name.as_deref().unwrap_or("?"),
                    interface_path(&resolve, owner)
                );
            }
        }
    }

    // Only provider worlds may import host natives.
    for (_, world) in &resolve.worlds {
        let imports_host = world.imports.values().any(|item| match item {
            WorldItem::Interface { id, .. } => resolve.interfaces[*id].package == Some(host),
            _ => false,
        });
        if imports_host {
            assert!(
                world.name.ends_with("provider"),
                "world {} imports seam:host/* but is not a provider world",
                world.name
            );
        }
    }
}

#[test]
fn errors_are_code_and_message_records() {
    let (resolve, _) = load_all();
    let mut checked = 0;
    for (_, iface) in &resolve.interfaces {
        let Some(ty) = iface.types.get("error") else {
            continue;
        };
        if let TypeDefKind::Type(_) = resolve.types[*ty].kind {
            // `use types.{error}`: checked where it is defined.
            continue;
        }
        let TypeDefKind::Record(record) = &resolve.types[*ty].kind else {
            panic!("{}: `error` is not a record", iface.name.as_deref().unwrap_or("?"));
        };
        let fields: Vec<(&str, Type)> = record
            .fields
            .iter()
            .map(|field| (field.name.as_str(), field.ty))
            .collect();
        assert_eq!(
            fields,
            [("code", Type::String), ("message", Type::String)],
            "{}: error must be `record error {{ code: string, message: string }}`",
            iface.name.as_deref().unwrap_or("?")
        );
        checked += 1;
    }
    assert!(checked > 0, "no error records found");
}

#[test]
fn resources_stay_inside_their_interface() {
    // Each interface defines its own resources; `use` (within or across packages) is for plain
    // data. Durable things cross calls and interfaces as ids.
    let (resolve, _) = load_all();
    for (_, iface) in &resolve.interfaces {
        for (name, ty) in &iface.types {
            if let TypeDefKind::Type(Type::Id(other)) = resolve.types[*ty].kind
                && matches!(resolve.types[other].kind, TypeDefKind::Resource)
            {
                panic!(
                    "{} uses resource `{name}` from another interface",
                    iface.name.as_deref().unwrap_or("?")
                );
            }
        }
    }
}
