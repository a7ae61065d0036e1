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

use std::fs::File;
use std::io::BufReader;
use std::path::Path;

use navstar::MeshOptions;
use navstar::io::{parse_movingai_map, parse_scenario};

use crate::clearance_oracle::{Region, VisibilityOracle};
use crate::oracle::{check_reachability, wide_radius};

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
    let region = Region::from_mesh(&mesh, |_| true);
    let at_r = VisibilityOracle::new(&region.erode(r));
    let wide = wide_radius(r);
    let at_wide = VisibilityOracle::new(&region.erode(wide));
    let problems = problems
        .iter()
        .enumerate()
        .map(|(i, p)| (i, p.grid_start(), p.grid_goal()));
    let counts = check_reachability(
        &mesh,
        r,
        &name,
        problems,
        |s, t| at_r.shortest(s, t).is_some(),
        |s, t| at_wide.shortest(s, t).is_some(),
        |_, _, _| {},
    );
    eprintln!(
        "{name} at r = {r}: {} of {} problems partial in navstar; the oracle finds \
         no way for {} at r, {} at {wide:.4}",
        counts.partial, counts.run, counts.cut_at_r, counts.cut_wide
    );
}
