//! The scenario problems of a benchmark grid map that become unreachable for a disc
//! (issue 14's "fraction of scenario problems that become unreachable, a check the
//! oracle confirms"): every problem of the map's scenario at radius `r`, navstar's
//! status against oracle A's visibility graphs of the map eroded by `r` (with `geo`)
//! and by `r / cos(pi / ARC_SEGMENTS)` (the circle round navstar's octagons), between
//! the points navstar moves start and goal to. navstar's region lies between those
//! two, so a complete path needs a way at `r`, and a way at the larger radius needs a
//! complete path. `NAVSTAR_ORACLE_MAP` names another map of `../shared/data/grid`
//! (den312d by default), `NAVSTAR_ORACLE_RADIUS` another radius (0.5 by default); the
//! counts are printed (BENCHMARKS.md, "session 17").

use std::f64::consts::PI;
use std::fs::File;
use std::io::BufReader;
use std::path::Path;

use navstar::io::{parse_movingai_map, parse_scenario};
use navstar::{ARC_SEGMENTS, MeshOptions, PathOptions, PathStatus, Query};

use crate::clearance_oracle::{Region, VisibilityOracle};

const GRID_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data/grid");

#[test]
fn unreachable_scenario_problems_are_those_the_oracle_cuts() {
    let name = std::env::var("NAVSTAR_ORACLE_MAP").unwrap_or_else(|_| "den312d".to_string());
    let r: f64 = std::env::var("NAVSTAR_ORACLE_RADIUS").map_or(0.5, |r| r.parse().unwrap());
    let path = Path::new(GRID_DIR).join(format!("{name}.map"));
    let map = parse_movingai_map(BufReader::new(File::open(&path).unwrap())).unwrap();
    let mesh = map.to_mesh(&MeshOptions::default()).unwrap();
    let scen = Path::new(GRID_DIR).join(format!("{name}.map.scen"));
    let problems = parse_scenario(BufReader::new(File::open(&scen).unwrap())).unwrap();
    let up = mesh.up_axis();
    let region = Region::from_mesh(&mesh, |_| true);
    let at_r = VisibilityOracle::new(&region.erode(r));
    // A hair beyond the octagon's circle, so that rounding never puts a point of the
    // larger radius's region outside navstar's.
    let wide = r / (PI / ARC_SEGMENTS as f64).cos() + 1e-5;
    let at_wide = VisibilityOracle::new(&region.erode(wide));

    let options = PathOptions::default().with_agent_radius(r as f32);
    let mut query = Query::new(&mesh);
    let (mut partial, mut cut_at_r, mut cut_wide) = (0, 0, 0);
    for (i, problem) in problems.iter().enumerate() {
        let (s, t) = (problem.grid_start(), problem.grid_goal());
        let path = query.find_path(s, t, &options).unwrap();
        let complete = path.status == PathStatus::Complete;
        partial += usize::from(!complete);
        let moved = |p| {
            let near = mesh.nearest_point_for_agent(p, f32::INFINITY, None, r as f32);
            up.ground(near.unwrap().unwrap().point).as_dvec2()
        };
        let (s2, t2) = (moved(s), moved(t));
        let way_at_r = at_r.shortest(s2, t2).is_some();
        let way_wide = at_wide.shortest(s2, t2).is_some();
        cut_at_r += usize::from(!way_at_r);
        cut_wide += usize::from(!way_wide);
        let context = format!("{name} problem {i} at r = {r}: {s2} -> {t2}");
        assert!(
            !complete || way_at_r,
            "{context}: navstar's path, no way at r"
        );
        assert!(
            complete || !way_wide,
            "{context}: partial, but a way at {wide}"
        );
    }
    eprintln!(
        "{name} at r = {r}: {partial} of {} problems partial in navstar; the oracle finds \
         no way for {cut_at_r} at r, {cut_wide} at {wide:.4}",
        problems.len()
    );
    assert!(cut_at_r <= partial && partial <= cut_wide);
}
