//! The check shared by the scenario tests of reachability at a radius
//! (`unreachable.rs`, `iron_harvest.rs`): navstar's path status for each problem
//! against an oracle of the region eroded by `r` and by [`wide_radius`]`(r)`. navstar's
//! region lies between those two, so a complete path needs a way at `r`, and a way at
//! the larger radius needs a complete path; the oracles are compared at the points
//! navstar moves start and goal to.

use std::f64::consts::PI;

use glam::{DVec2, Vec3};
use navstar::{ARC_SEGMENTS, NavMesh, PathOptions, PathStatus, Query};

/// A hair beyond the circle round navstar's octagons for radius `r` (`r / cos(pi /
/// ARC_SEGMENTS)`), so that rounding never puts a point of the region eroded by it
/// outside navstar's region at `r`.
pub fn wide_radius(r: f64) -> f64 {
    r / (PI / ARC_SEGMENTS as f64).cos() + 1e-5
}

/// What [`check_reachability`] counted.
#[derive(Debug, Clone, Copy)]
pub struct Reachability {
    /// The problems run.
    pub run: usize,
    /// Those navstar finds no complete path for.
    pub partial: usize,
    /// Those the oracle at `r` finds no way for.
    pub cut_at_r: usize,
    /// Those the oracle at [`wide_radius`] finds no way for.
    pub cut_wide: usize,
}

/// Runs every problem `(index, start, goal)` on `mesh` for a disc of radius `r` and
/// checks navstar's status against the oracles (`way_at_r`, `way_wide`: whether two
/// ground points are joined in the region eroded by `r`, by [`wide_radius`]`(r)`),
/// between the moved ends: a complete path needs a way at `r`, a partial one no way at
/// the wide radius. `moved_ends(context, start, goal)` makes any further check of the
/// moved ends. Panics on a failed check, naming `name`, the problem and its moved ends;
/// last asserts that navstar's partial count lies between the oracles' counts.
pub fn check_reachability(
    mesh: &NavMesh,
    r: f64,
    name: &str,
    problems: impl IntoIterator<Item = (usize, Vec3, Vec3)>,
    way_at_r: impl Fn(DVec2, DVec2) -> bool,
    way_wide: impl Fn(DVec2, DVec2) -> bool,
    moved_ends: impl Fn(&str, DVec2, DVec2),
) -> Reachability {
    let up = mesh.up_axis();
    let wide = wide_radius(r);
    let options = PathOptions::default().with_agent_radius(r as f32);
    let mut query = Query::new(mesh);
    let mut counts = Reachability {
        run: 0,
        partial: 0,
        cut_at_r: 0,
        cut_wide: 0,
    };
    for (i, s, t) in problems {
        counts.run += 1;
        let path = query.find_path(s, t, &options).unwrap();
        let complete = path.status == PathStatus::Complete;
        counts.partial += usize::from(!complete);
        let moved = |p| {
            let near = mesh.nearest_point_for_agent(p, f32::INFINITY, None, r as f32);
            up.ground(near.unwrap().unwrap().point).as_dvec2()
        };
        let (s2, t2) = (moved(s), moved(t));
        let context = format!("{name} problem {i} at r = {r}: {s2} -> {t2}");
        moved_ends(&context, s2, t2);
        let at_r = way_at_r(s2, t2);
        let at_wide = way_wide(s2, t2);
        counts.cut_at_r += usize::from(!at_r);
        counts.cut_wide += usize::from(!at_wide);
        assert!(!complete || at_r, "{context}: navstar's path, no way at r");
        assert!(
            complete || !at_wide,
            "{context}: partial, but a way at {wide}"
        );
    }
    assert!(
        counts.cut_at_r <= counts.partial && counts.partial <= counts.cut_wide,
        "{name} at r = {r}: {counts:?}"
    );
    counts
}
