//! The Unity package that `scripts/build-plugins` packs (`target/unity/`): each platform's
//! library is the right kind of file for its CPU, exports every function that
//! `include/navstar.h` declares, sits where the package says with import settings for
//! its OS and CPU, and the tarball holds the unpacked package's files under `package/`.
//!
//! `scripts/test` runs `scripts/build-plugins --debug` before these tests; without it
//! they fail and say so (they never skip).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::{lib_dir, manifest_dir, run_ok};

/// One library of the package.
struct Plugin {
    /// Its place in the package.
    path: &'static str,
    /// What `objdump -f` says of its format.
    format: &'static str,
    /// Its architecture, as `objdump -f` names it.
    architecture: &'static str,
    /// The objdump that reads it.
    objdump: &'static str,
    /// Its import settings: the OS of the Editor, the standalone player, the CPU.
    editor_os: &'static str,
    standalone: &'static str,
    cpu: &'static str,
}

const PLUGINS: [Plugin; 3] = [
    Plugin {
        path: "Plugins/Linux/x86_64/libnavstar.so",
        format: "elf64-x86-64",
        architecture: "i386:x86-64",
        objdump: "objdump",
        editor_os: "Linux",
        standalone: "Linux64",
        cpu: "x86_64",
    },
    Plugin {
        path: "Plugins/Linux/arm64/libnavstar.so",
        format: "elf64-littleaarch64",
        architecture: "aarch64",
        objdump: "aarch64-linux-gnu-objdump",
        editor_os: "Linux",
        standalone: "Linux64",
        cpu: "ARM64",
    },
    Plugin {
        path: "Plugins/Windows/x86_64/navstar.dll",
        format: "pei-x86-64",
        architecture: "i386:x86-64",
        objdump: "x86_64-w64-mingw32-objdump",
        editor_os: "Windows",
        standalone: "Win64",
        cpu: "x86_64",
    },
];

/// `target/unity`, where `scripts/build-plugins` writes.
fn unity_dir() -> PathBuf {
    let target = lib_dir()
        .parent()
        .expect("target/<profile> has a parent")
        .to_path_buf();
    let dir = target.join("unity");
    assert!(
        dir.join("package/package.json").is_file(),
        "{} holds no package: run scripts/build-plugins (scripts/test does) before these tests",
        dir.display()
    );
    dir
}

/// Each `navstar_...(` in `text` that starts a word and follows `before`.
fn function_names(text: &str, before: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for (at, _) in text.match_indices("navstar_") {
        let head = &text[..at];
        let starts_word = !head
            .chars()
            .next_back()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
        let rest = &text[at..];
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if starts_word && head.ends_with(before) && rest[end..].starts_with('(') {
            names.insert(rest[..end].to_string());
        }
    }
    names
}

/// The functions `include/navstar.h` declares, checked against the `extern "C"`
/// functions of `src/ffi` (so that a header this parser misreads cannot pass).
fn declared_functions() -> BTreeSet<String> {
    let header = std::fs::read_to_string(manifest_dir().join("include/navstar.h"))
        .expect("read include/navstar.h");
    let declared = function_names(&header, "");
    let mut defined = BTreeSet::new();
    let mut pending = vec![manifest_dir().join("src/ffi")];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).expect("read src/ffi") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).expect("read a source file");
                defined.extend(function_names(&text, "extern \"C\" fn "));
            }
        }
    }
    assert!(
        !defined.is_empty(),
        "no extern \"C\" function found in src/ffi"
    );
    assert_eq!(
        declared, defined,
        "include/navstar.h and src/ffi name different functions"
    );
    declared
}

/// The `navstar_*` symbols a library exports, read with `objdump -T` (ELF: the dynamic
/// symbol table's defined functions) or `objdump -p` (PE: the export name table).
fn exported_functions(plugin: &Plugin, file: &Path) -> BTreeSet<String> {
    let mut command = Command::new(plugin.objdump);
    let pe = plugin.format.starts_with("pei");
    command.arg(if pe { "-p" } else { "-T" }).arg(file);
    let text = run_ok(command);
    let mut names = BTreeSet::new();
    let mut in_name_table = false;
    for line in text.lines() {
        if pe {
            if line.contains("[Ordinal/Name Pointer] Table") {
                in_name_table = true;
                continue;
            }
            if in_name_table && line.trim().is_empty() {
                in_name_table = false;
            }
            if !in_name_table {
                continue;
            }
        } else if !(line.contains(" DF ") && line.contains(".text")) {
            continue;
        }
        if let Some(name) = line.split_whitespace().last() {
            if name.starts_with("navstar_") {
                names.insert(name.to_string());
            }
        }
    }
    names
}

#[test]
fn every_plugin_exports_every_function_of_the_header() {
    let package = unity_dir().join("package");
    let declared = declared_functions();
    for plugin in &PLUGINS {
        let file = package.join(plugin.path);
        assert!(file.is_file(), "{} is missing", file.display());
        let mut command = Command::new(plugin.objdump);
        command.arg("-f").arg(&file);
        let header = run_ok(command);
        assert!(
            header.contains(&format!("file format {}", plugin.format))
                && header.contains(&format!("architecture: {}", plugin.architecture)),
            "{} is not {} for {}:\n{header}",
            plugin.path,
            plugin.format,
            plugin.architecture
        );
        let exported = exported_functions(plugin, &file);
        let missing: Vec<_> = declared.difference(&exported).collect();
        assert!(
            missing.is_empty(),
            "{} does not export {missing:?}",
            plugin.path
        );
    }
}

#[test]
fn every_plugin_is_imported_for_its_platform_only() {
    let package = unity_dir().join("package");
    for plugin in &PLUGINS {
        let meta_path = package.join(format!("{}.meta", plugin.path));
        let meta = std::fs::read_to_string(&meta_path)
            .unwrap_or_else(|e| panic!("{}: {e}", meta_path.display()));
        assert!(meta.contains("PluginImporter:"), "{}", meta_path.display());
        for setting in [
            format!(
                "Editor: Editor\n    second:\n      enabled: 1\n      settings:\n        CPU: {}\n        DefaultValueInitialized: true\n        OS: {}",
                plugin.cpu, plugin.editor_os
            ),
            format!(
                "Standalone: {}\n    second:\n      enabled: 1\n      settings:\n        CPU: {}",
                plugin.standalone, plugin.cpu
            ),
        ] {
            assert!(
                meta.contains(&setting),
                "{} lacks\n{setting}\nin\n{meta}",
                meta_path.display()
            );
        }
        // The other desktop OS and the mobile platforms are excluded.
        let own = match plugin.editor_os {
            "Linux" => "Exclude Linux64: 0",
            _ => "Exclude Win64: 0",
        };
        assert!(meta.contains(own), "{}: {own}", meta_path.display());
        for other in [
            "Exclude OSXUniversal: 1",
            "Exclude Android: 1",
            "Exclude iOS: 1",
        ] {
            assert!(meta.contains(other), "{}: {other}", meta_path.display());
        }
    }
}

#[test]
fn the_tarball_holds_the_package_with_a_meta_for_every_asset() {
    let unity = unity_dir();
    let version = env!("CARGO_PKG_VERSION");
    let tarball = unity.join(format!("com.navstar.navstar-{version}.tgz"));
    let mut command = Command::new("tar");
    command.arg("-tzf").arg(&tarball);
    let listed: BTreeSet<String> = run_ok(command)
        .lines()
        .map(|l| l.trim_end_matches('/').to_string())
        .collect();
    let mut files = BTreeSet::new();
    let mut guids = BTreeSet::new();
    let mut pending = vec![unity.join("package")];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).expect("read the package") {
            let path = entry.expect("an entry").path();
            let relative = path
                .strip_prefix(&unity)
                .expect("inside target/unity")
                .to_string_lossy()
                .into_owned();
            files.insert(relative.clone());
            if path.is_dir() {
                pending.push(path.clone());
            }
            if relative.ends_with(".meta") {
                let text = std::fs::read_to_string(&path).expect("read a .meta");
                let guid = text
                    .lines()
                    .find_map(|l| l.strip_prefix("guid: "))
                    .unwrap_or_else(|| panic!("{relative} has no guid"));
                assert!(guids.insert(guid.to_string()), "{relative}: duplicate guid");
            } else if relative != "package/package.json" {
                let meta = format!("{}.meta", path.display());
                assert!(Path::new(&meta).is_file(), "{relative} has no .meta");
            }
        }
    }
    files.insert("package".to_string());
    assert_eq!(listed, files, "the tarball and target/unity/package differ");
    for plugin in &PLUGINS {
        assert!(
            listed.contains(&format!("package/{}", plugin.path)),
            "the tarball lacks {}",
            plugin.path
        );
    }
}
