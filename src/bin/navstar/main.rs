//! `navstar`: inspect navigation meshes, find paths, run benchmark scenarios and draw
//! pictures from the command line.
//!
//! Built only with the `cli` feature (`cargo run --features cli -- help`), so the library
//! itself gains no dependencies. Arguments are parsed by hand ([`args`]).
//!
//! Exit codes: 0 success, 1 failure (a file cannot be read, a mesh is rejected, a path or
//! scenario problem fails), 2 usage error (unknown command or option, bad value).

mod args;
mod bench;
mod common;
mod info;
mod modes;
mod path;
mod scen;
mod stats;
mod svg;

use std::process::ExitCode;

use args::{Args, CliError, Spec};
use navstar::io::MeshFormat;

/// One subcommand: its name, a one-line summary, its full help and how to run it.
struct Command {
    name: &'static str,
    summary: &'static str,
    help: &'static str,
    spec: Spec,
    run: fn(&Args) -> Result<(), CliError>,
}

/// Every subcommand, in the order `--help` lists them.
const COMMANDS: &[Command] = &[
    Command {
        name: "info",
        summary: "format, counts, bounds, polygon and island statistics, validation",
        help: info::HELP,
        spec: info::SPEC,
        run: info::run,
    },
    Command {
        name: "path",
        summary: "find one path and print its corners and length",
        help: path::HELP,
        spec: path::SPEC,
        run: path::run,
    },
    Command {
        name: "scen",
        summary: "run every problem of a Moving AI scenario file",
        help: scen::HELP,
        spec: scen::SPEC,
        run: scen::run,
    },
    Command {
        name: "bench",
        summary: "time path queries (random pairs or a scenario file)",
        help: bench::HELP,
        spec: bench::SPEC,
        run: bench::run,
    },
    Command {
        name: "svg",
        summary: "draw the mesh (and a path) top-down as an SVG picture",
        help: svg::HELP,
        spec: svg::SPEC,
        run: svg::run,
    },
];

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    match dispatch(&argv) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("{error}");
            ExitCode::from(error.exit_code())
        }
    }
}

/// Picks the command named by the first argument and runs it with the rest.
fn dispatch(argv: &[String]) -> Result<(), CliError> {
    let Some(first) = argv.first() else {
        return Err(CliError::usage(
            None,
            format!("no command given\n\n{}", overview()),
        ));
    };
    match first.as_str() {
        "-h" | "--help" | "help" => {
            match argv.get(1) {
                Some(name) => print!("{}", find_command(name)?.help),
                None => print!("{}", overview()),
            }
            return Ok(());
        }
        "-V" | "--version" => {
            println!("navstar {}", env!("CARGO_PKG_VERSION"));
            return Ok(());
        }
        _ => {}
    }
    let command = find_command(first)?;
    let rest = &argv[1..];
    if args::wants_help(rest) {
        print!("{}", command.help);
        return Ok(());
    }
    let args = Args::parse(command.name, &command.spec, rest)?;
    (command.run)(&args)
}

fn find_command(name: &str) -> Result<&'static Command, CliError> {
    COMMANDS.iter().find(|c| c.name == name).ok_or_else(|| {
        CliError::usage(
            None,
            format!(
                "unknown command '{name}' (commands: {}; see 'navstar --help')",
                COMMANDS
                    .iter()
                    .map(|c| c.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )
    })
}

/// The top-level help: usage and the list of commands.
fn overview() -> String {
    let mut text = String::from(
        "navstar: navigation-mesh pathfinding (A* over convex polygons + funnel)\n\n\
         Usage: navstar COMMAND [ARGS...]\n       navstar COMMAND --help\n\nCommands:\n",
    );
    for command in COMMANDS {
        text.push_str(&format!("  {:<6} {}\n", command.name, command.summary));
    }
    text.push_str("\nMesh files (by extension):\n");
    for &format in MeshFormat::ALL {
        let extensions: Vec<String> = format
            .extensions()
            .iter()
            .map(|e| format!(".{e}"))
            .collect();
        text.push_str(&format!(
            "  {:<6} {}\n",
            extensions.join(" "),
            common::format_name(format)
        ));
    }
    text.push_str(
        "OBJ files are 3D and Y-up unless loaded with --up z; the other formats are 2D,\n\
         built Z-up in the plane z = 0.\n\nExit codes: 0 success, 1 failure, 2 usage error.\n",
    );
    text
}
