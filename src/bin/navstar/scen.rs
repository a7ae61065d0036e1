//! `navstar scen`: run every problem of a Moving AI scenario file and compare the path
//! lengths with the file's reference lengths.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::time::{Duration, Instant};

use navstar::glam::Vec3;
use navstar::io::{MeshFormat, ScenarioProblem};
use navstar::{PathOptions, Query, QueryError};

use clap::Args;

use crate::common::{self, PointRule, format_number};
use crate::error::CliError;
use crate::options::{PathArgs, ScenarioArgs};
use crate::stats;
use crate::tiles;

/// Run every problem of a Moving AI scenario file
///
/// Finds the path of every problem and prints a summary: problems solved and failed (a
/// failure is a partial path or an error), length / reference length (mean and max,
/// skipping references <= 0) and the time per query (mean and median). Exit code 1 if any
/// problem failed.
///
/// On a grid map (.map) a problem's (x, y) is a cell, and the query uses its centre
/// (x+0.5, y+0.5); on a mesh the point is used as written (see --points). The reference
/// of a grid scenario is the 8-connected grid distance, an upper bound of the any-angle
/// length between the same points, so the ratio is at most 1 there. Scenario points are
/// 2D: an OBJ mesh must be loaded with --up z.
#[derive(Debug, Args)]
pub struct ScenCommand {
    /// The grid map or mesh file
    #[arg(value_name = "MAP_OR_MESH")]
    mesh: String,
    /// The scenario file (.scen)
    #[arg(value_name = "SCEN")]
    scen: String,
    /// Write one CSV row per problem to OUT ('-' for standard output):
    /// id,sx,sy,gx,gy,reference,length,status,micros (the points queried; status
    /// complete, partial or an error name)
    #[arg(long, value_name = "OUT")]
    csv: Option<String>,
    /// No progress messages on standard error
    #[arg(long)]
    quiet: bool,
    #[command(flatten)]
    scenario: ScenarioArgs,
    #[command(flatten)]
    path: PathArgs,
}

/// The outcome of one problem.
struct Outcome {
    start: Vec3,
    goal: Vec3,
    reference: f64,
    /// The path length, for a path of any status.
    length: Option<f32>,
    /// `complete`, `partial` or an error name.
    status: &'static str,
    time: Duration,
}

impl Outcome {
    fn solved(&self) -> bool {
        self.status == "complete"
    }
}

impl ScenCommand {
    /// Runs `navstar scen`.
    ///
    /// # Errors
    /// Usage errors for files that do not fit; failures for unreadable files, and when
    /// any problem failed (after the summary is printed).
    pub fn run(&self) -> Result<(), CliError> {
        let options = self.path.options();
        let (mesh_path, scen_path) = (self.mesh.as_str(), self.scen.as_str());
        let loaded = tiles::load_path_mesh(mesh_path, &self.path)?;
        let problems = common::load_scenario(scen_path)?;
        let rule = PointRule::or_default(self.scenario.points, loaded.format, &problems);
        // Detour navmeshes are Y-up: a scenario's (x, y) is their ground point (x, z).
        let y_up = loaded.format == MeshFormat::Detour;
        if !y_up {
            common::require_z_up(&loaded.mesh, "a scenario file")?;
        }
        warn_if_other_map(mesh_path, &problems);
        let csv_target = self.csv.as_deref();
        let mut csv = open_csv(csv_target)?;
        let mut query = Query::new(&loaded.mesh);
        let mut progress = Progress::new(problems.len(), self.quiet);
        let mut outcomes = Vec::with_capacity(problems.len());
        for (id, problem) in problems.iter().enumerate() {
            let outcome = solve(&mut query, problem, rule, y_up, &options);
            if let Some(csv) = csv.as_mut() {
                write_row(csv, id, &outcome).map_err(|e| csv_error(csv_target, &e))?;
            }
            outcomes.push(outcome);
            progress.tick(id + 1);
        }
        if let Some(mut csv) = csv {
            csv.flush().map_err(|e| csv_error(csv_target, &e))?;
        }
        let summary = summary(
            mesh_path,
            scen_path,
            &loaded,
            rule,
            &self.path.mode.name(),
            &outcomes,
        );
        // Keep standard output pure CSV when the rows go there.
        if csv_target == Some("-") {
            eprint!("{summary}");
        } else {
            print!("{summary}");
        }
        let failed = outcomes.iter().filter(|o| !o.solved()).count();
        if failed > 0 {
            return Err(CliError::failure(format!(
                "{failed} of {} problems failed",
                outcomes.len()
            )));
        }
        Ok(())
    }
}

/// Runs one problem.
fn solve(
    query: &mut Query,
    problem: &ScenarioProblem,
    rule: PointRule,
    y_up: bool,
    options: &PathOptions,
) -> Outcome {
    let (start, goal) = rule.endpoints(problem);
    // (x, y, 0) to the Y-up ground point (x, 0, y); the path snaps to the mesh's height.
    let (start, goal) = if y_up {
        let swap = |p: Vec3| Vec3::new(p.x, 0.0, p.y);
        (swap(start), swap(goal))
    } else {
        (start, goal)
    };
    let started = Instant::now();
    let result = query.find_path(start, goal, options);
    let time = started.elapsed();
    let (length, status) = match result {
        Ok(path) => (Some(path.length()), common::status_name(path.status)),
        Err(error) => (None, error_name(&error)),
    };
    Outcome {
        start,
        goal,
        reference: problem.optimal_length,
        length,
        status,
        time,
    }
}

/// A short name of a query error, for the CSV.
fn error_name(error: &QueryError) -> &'static str {
    match error {
        QueryError::NotOnMesh { .. } => "not-on-mesh",
        QueryError::NoPath => "no-path",
        QueryError::NonFinitePoint(_) => "non-finite-point",
        QueryError::InvalidOption(_) => "invalid-option",
        _ => "error",
    }
}

/// Notes on standard error when the scenario names a map other than `mesh_path`
/// (compared without extensions: `arena.map` matches `arena.mesh`).
fn warn_if_other_map(mesh_path: &str, problems: &[ScenarioProblem]) {
    let stem = |name: &str| {
        Path::new(name)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
    };
    let Some(problem) = problems.first() else {
        return;
    };
    if stem(problem.map_file_name()) != stem(mesh_path) {
        eprintln!(
            "navstar scen: note: the scenario is for map '{}', not '{mesh_path}'",
            problem.map
        );
    }
}

/// The CSV output: `None` without `--csv`, standard output for `-`.
fn open_csv(target: Option<&str>) -> Result<Option<Box<dyn Write>>, CliError> {
    let mut out: Box<dyn Write> = match target {
        None => return Ok(None),
        Some("-") => Box::new(BufWriter::new(io::stdout().lock())),
        Some(path) => {
            Box::new(BufWriter::new(File::create(path).map_err(|e| {
                CliError::failure(format!("cannot create '{path}': {e}"))
            })?))
        }
    };
    writeln!(out, "id,sx,sy,gx,gy,reference,length,status,micros")
        .map_err(|e| csv_error(target, &e))?;
    Ok(Some(out))
}

fn csv_error(target: Option<&str>, error: &io::Error) -> CliError {
    CliError::failure(format!("cannot write '{}': {error}", target.unwrap_or("-")))
}

/// One CSV row.
fn write_row(out: &mut dyn Write, id: usize, o: &Outcome) -> io::Result<()> {
    writeln!(
        out,
        "{id},{},{},{},{},{},{},{},{:.2}",
        format_number(o.start.x, 4),
        format_number(o.start.y, 4),
        format_number(o.goal.x, 4),
        format_number(o.goal.y, 4),
        o.reference,
        o.length.map_or(String::new(), |l| format_number(l, 6)),
        o.status,
        stats::micros(o.time)
    )
}

/// The summary printed after the run.
fn summary(
    mesh_path: &str,
    scen_path: &str,
    loaded: &common::LoadedMesh,
    rule: PointRule,
    mode: &str,
    outcomes: &[Outcome],
) -> String {
    let solved: Vec<&Outcome> = outcomes.iter().filter(|o| o.solved()).collect();
    let ratios: Vec<f64> = solved
        .iter()
        .filter(|o| o.reference > 0.0)
        .filter_map(|o| o.length.map(|l| f64::from(l) / o.reference))
        .collect();
    let longer = ratios.iter().filter(|&&r| r > 1.0 + 1e-4).count();
    let mut times: Vec<f64> = outcomes.iter().map(|o| stats::micros(o.time)).collect();
    times.sort_by(f64::total_cmp);
    let mut text = format!(
        "mesh:      {mesh_path} ({}, {} polygons)\n\
         scenario:  {scen_path} ({} problems; {})\n\
         mode:      {mode}\n\
         solved:    {} / {}\n\
         failed:    {}\n",
        common::format_name(loaded.format),
        loaded.mesh.polygon_count(),
        outcomes.len(),
        rule.describe(),
        solved.len(),
        outcomes.len(),
        outcomes.len() - solved.len(),
    );
    if let Some(tiling) = &loaded.tiling {
        text.push_str(&format!("tiles:     {}\n", tiling.describe()));
    }
    if ratios.is_empty() {
        text.push_str("length/reference: no solved problem with a reference > 0\n");
    } else {
        let max = ratios.iter().copied().fold(f64::MIN, f64::max);
        text.push_str(&format!(
            "length/reference: mean {:.6}, max {max:.6} over {} problems ({longer} longer than the reference by > 0.01%)\n",
            stats::mean(&ratios),
            ratios.len()
        ));
    }
    text.push_str(&format!(
        "time per query: mean {:.2} us, median {:.2} us (total {:.1} ms)\n",
        stats::mean(&times),
        stats::median(&times),
        times.iter().sum::<f64>() / 1e3
    ));
    for (id, o) in outcomes
        .iter()
        .enumerate()
        .filter(|(_, o)| !o.solved())
        .take(5)
    {
        text.push_str(&format!(
            "failed: problem {id} ({} -> {}): {}\n",
            common::format_point(o.start),
            common::format_point(o.goal),
            o.status
        ));
    }
    text
}

/// Progress messages on standard error, at most every 2 seconds.
struct Progress {
    total: usize,
    quiet: bool,
    started: Instant,
    last: Instant,
}

impl Progress {
    const EVERY: Duration = Duration::from_secs(2);

    fn new(total: usize, quiet: bool) -> Progress {
        let now = Instant::now();
        Progress {
            total,
            quiet,
            started: now,
            last: now,
        }
    }

    /// Reports `done` problems if the last report is old enough.
    fn tick(&mut self, done: usize) {
        if self.quiet || self.last.elapsed() < Self::EVERY || done == self.total {
            return;
        }
        self.last = Instant::now();
        eprintln!(
            "navstar scen: {done} / {} problems ({:.0}%), {:.1} s",
            self.total,
            100.0 * done as f64 / self.total.max(1) as f64,
            self.started.elapsed().as_secs_f64()
        );
    }
}
