//! `navstar`: inspect navigation meshes, find paths, run benchmark scenarios and draw
//! pictures from the command line.
//!
//! Built only with the `cli` feature (`cargo run --features cli -- help`), so the library
//! itself gains no dependencies. The command line is declared once with `clap`'s derive:
//! each option's doc comment is its help, and the path options the commands share live in
//! one flattened struct ([`options::PathArgs`]).
//!
//! Exit codes: 0 success, 1 failure (a file cannot be read, a mesh is rejected, a path or
//! scenario problem fails), 2 usage error (unknown command or option, bad value).

mod bench;
mod common;
mod error;
mod info;
mod options;
mod path;
mod save;
mod scen;
mod simulate;
mod stats;
mod svg;
mod tiles;

use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use navstar::io::MeshFormat;

use error::CliError;

/// navstar: navigation-mesh pathfinding (A* over convex polygons + funnel)
#[derive(Debug, Parser)]
#[command(name = "navstar", version, subcommand_required = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The subcommands, in the order `--help` lists them.
#[derive(Debug, Subcommand)]
enum Command {
    Info(info::InfoCommand),
    Path(path::PathCommand),
    Scen(scen::ScenCommand),
    Bench(bench::BenchCommand),
    Svg(svg::SvgCommand),
    Save(save::SaveCommand),
    Simulate(simulate::SimulateCommand),
}

impl Command {
    /// The command's name, for error messages.
    fn name(&self) -> &'static str {
        match self {
            Command::Info(_) => "info",
            Command::Path(_) => "path",
            Command::Scen(_) => "scen",
            Command::Bench(_) => "bench",
            Command::Svg(_) => "svg",
            Command::Save(_) => "save",
            Command::Simulate(_) => "simulate",
        }
    }

    fn run(&self) -> Result<(), CliError> {
        match self {
            Command::Info(command) => command.run(),
            Command::Path(command) => command.run(),
            Command::Scen(command) => command.run(),
            Command::Bench(command) => command.run(),
            Command::Svg(command) => command.run(),
            Command::Save(command) => command.run(),
            Command::Simulate(command) => command.run(),
        }
    }
}

fn main() -> ExitCode {
    // The list of mesh formats comes from the library, so it is added at run time.
    let matches = Cli::command().after_help(formats_help()).get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|error| error.exit());
    match cli.command.run() {
        Ok(()) => ExitCode::SUCCESS,
        // Reported as clap reports its own usage errors: message, usage line, exit code 2.
        Err(CliError::Usage(message)) => {
            let mut command = Cli::command();
            command.build();
            let error = match command.find_subcommand_mut(cli.command.name()) {
                Some(subcommand) => subcommand.error(ErrorKind::ValueValidation, message),
                None => command.error(ErrorKind::ValueValidation, message),
            };
            error.exit()
        }
        Err(CliError::Failure(message)) => {
            eprintln!("navstar: error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// The end of the top-level help: the mesh formats by extension, and the exit codes.
fn formats_help() -> String {
    let mut text = String::from("Mesh files (by extension):\n");
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
         built Z-up in the plane z = 0.\n\nExit codes: 0 success, 1 failure, 2 usage error.",
    );
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_line_is_consistent() {
        // clap's own checks: no clashing names, defaults that parse, and so on.
        Cli::command().debug_assert();
    }
}
