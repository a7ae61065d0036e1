//! The search mode (`--mode`) and the path options every path-finding command shares
//! (`--weight`, `--snap`, `--no-partial`).
//!
//! `funnel` (A* + funnel, the default) and `optimal` (exact shortest paths).

use std::str::FromStr;

use navstar::{PathMode, PathOptions, SearchStrategy};

use crate::args::{Args, CliError};

/// How paths are computed (`--mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// A* over the polygons, then the funnel algorithm along the corridor.
    #[default]
    Funnel,
    /// The exact any-angle shortest path (interval search over the mesh).
    Optimal,
}

impl Mode {
    /// Every mode this build supports, by name.
    pub const ALL: &[(&str, Mode)] = &[("funnel", Mode::Funnel), ("optimal", Mode::Optimal)];

    /// Modes that are known but not available yet, with why.
    const PLANNED: &[(&str, &str)] = &[];

    /// The library strategy of this mode.
    pub fn strategy(self) -> SearchStrategy {
        match self {
            Mode::Funnel | Mode::Optimal => SearchStrategy::AStar,
        }
    }

    /// The library path mode of this mode.
    pub fn path_mode(self) -> PathMode {
        match self {
            Mode::Funnel => PathMode::Funnel,
            Mode::Optimal => PathMode::Optimal,
        }
    }

    /// The mode's name, as `--mode` takes it.
    pub fn name(self) -> &'static str {
        Mode::ALL
            .iter()
            .find(|(_, m)| *m == self)
            .map_or("?", |(n, _)| n)
    }
}

impl FromStr for Mode {
    type Err = String;

    fn from_str(s: &str) -> Result<Mode, String> {
        if let Some(&(_, mode)) = Mode::ALL.iter().find(|(n, _)| n.eq_ignore_ascii_case(s)) {
            return Ok(mode);
        }
        if let Some((_, why)) = Mode::PLANNED
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(s))
        {
            return Err((*why).into());
        }
        let known: Vec<&str> = Mode::ALL.iter().map(|(n, _)| *n).collect();
        Err(format!("unknown mode (known: {})", known.join(", ")))
    }
}

/// `--mode`, `--weight`, `--snap` and `--no-partial` as path options (the options a
/// command does not declare are simply absent and keep their defaults).
///
/// # Errors
/// A usage error for a bad value.
pub fn path_options(args: &Args) -> Result<(Mode, PathOptions), CliError> {
    let mode: Mode = args.parsed("mode")?.unwrap_or_default();
    let mut options = PathOptions::default();
    options.strategy = mode.strategy();
    options.mode = mode.path_mode();
    if let Some(weight) = args.parsed::<f32>("weight")? {
        if !(weight.is_finite() && weight >= 0.0) {
            return Err(args.usage(format!("--weight must be finite and >= 0, got {weight}")));
        }
        options.heuristic_weight = weight;
    }
    if let Some(snap) = args.parsed::<f32>("snap")? {
        if snap.is_nan() || snap < 0.0 {
            return Err(args.usage(format!("--snap must be >= 0 (or inf), got {snap}")));
        }
        options.max_snap_distance = snap;
    }
    if args.flag("no-partial") {
        options.allow_partial = false;
    }
    Ok((mode, options))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes() {
        assert_eq!("funnel".parse::<Mode>(), Ok(Mode::Funnel));
        assert_eq!("optimal".parse::<Mode>(), Ok(Mode::Optimal));
        assert_eq!(Mode::Optimal.path_mode(), PathMode::Optimal);
        assert!(
            "fast"
                .parse::<Mode>()
                .unwrap_err()
                .contains("known: funnel, optimal")
        );
    }
}
