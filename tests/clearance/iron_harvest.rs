//! The Iron Harvest scenario (`../shared/data/mesh/scene_mp_2p_01.mesh`, 2,000 problems)
//! for a disc: which problems become unreachable, checked against oracle A's eroded
//! region (`geo`'s buffer, on `i_overlay`). A visibility graph of the whole level would
//! be slow, and reachability needs none: two points are joined inside the eroded region
//! exactly when they lie in the same of its connected parts (the polygons with holes of
//! the buffer's multipolygon). As in `unreachable.rs`, navstar's region lies between
//! the region eroded by `r` and by `r / cos(pi / ARC_SEGMENTS)`, so a complete path
//! needs both moved ends in one part at `r`, and both ends in one part at the larger
//! radius need a complete path. `NAVSTAR_ORACLE_RADIUS` sets the radius (0.5 by
//! default), `NAVSTAR_ORACLE_STRIDE` which problems run (every 4th by default, to keep
//! the debug build's run short; 1 for all 2,000); the counts are printed (BENCHMARKS.md,
//! "session 18": at 0.5, 1,030 of 2,000 partial, the oracle cuts exactly those 1,030
//! at `r`).

use std::fs::File;
use std::io::BufReader;
use std::path::Path;

use geo::{LineString, MultiPolygon};
use glam::DVec2;
use navstar::MeshOptions;
use navstar::io::{load_mesh_file, parse_scenario};

use crate::clearance_oracle::{Region, point_segment_distance};
use crate::oracle::{check_reachability, wide_radius};

const MESH_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data/mesh");

/// How far outside a part of the oracle's region a moved end may lie and still count
/// as in it: the region's snapping grid and `f32` rounding of navstar's points are far
/// below this; the parts of the eroded level lie much farther apart than this.
const ON_PART: f64 = 1e-4;

/// The connected parts of an eroded region, each as its open rings with a bounding box.
struct Parts {
    parts: Vec<(DVec2, DVec2, Vec<Vec<DVec2>>)>,
}

impl Parts {
    fn new(shape: &MultiPolygon<f64>) -> Parts {
        let ring = |line: &LineString<f64>| -> Vec<DVec2> {
            let mut ring: Vec<DVec2> = line.0.iter().map(|c| DVec2::new(c.x, c.y)).collect();
            if ring.len() > 1 && ring.first() == ring.last() {
                ring.pop();
            }
            ring
        };
        let parts = shape
            .iter()
            .map(|polygon| {
                let rings: Vec<Vec<DVec2>> = std::iter::once(polygon.exterior())
                    .chain(polygon.interiors())
                    .map(ring)
                    .filter(|r| r.len() >= 3)
                    .collect();
                let (lo, hi) = rings[0].iter().fold(
                    (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY)),
                    |(lo, hi), &p| (lo.min(p), hi.max(p)),
                );
                (lo, hi, rings)
            })
            .collect();
        Parts { parts }
    }

    /// The part holding `p` (or within [`ON_PART`] of it), if any.
    fn of(&self, p: DVec2) -> Option<usize> {
        self.parts
            .iter()
            .enumerate()
            .filter(|(_, (lo, hi, _))| p.cmpge(*lo - ON_PART).all() && p.cmple(*hi + ON_PART).all())
            .find(|(_, (_, _, rings))| {
                // Inside: an odd number of ring crossings (the exterior and the holes).
                let mut inside = false;
                let mut near = f64::INFINITY;
                for ring in rings {
                    for i in 0..ring.len() {
                        let (a, b) = (ring[i], ring[(i + 1) % ring.len()]);
                        near = near.min(point_segment_distance(p, a, b));
                        if (a.y > p.y) != (b.y > p.y)
                            && p.x < a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x)
                        {
                            inside = !inside;
                        }
                    }
                }
                inside || near <= ON_PART
            })
            .map(|(k, _)| k)
    }

    /// Whether `s` and `t` lie in one part.
    fn joined(&self, s: DVec2, t: DVec2) -> bool {
        matches!((self.of(s), self.of(t)), (Some(a), Some(b)) if a == b)
    }
}

#[test]
fn iron_harvest_unreachable_problems_are_those_the_oracle_cuts() {
    let r: f64 = std::env::var("NAVSTAR_ORACLE_RADIUS").map_or(0.5, |r| r.parse().unwrap());
    let stride: usize = std::env::var("NAVSTAR_ORACLE_STRIDE").map_or(4, |s| s.parse().unwrap());
    let path = Path::new(MESH_DIR).join("scene_mp_2p_01.mesh");
    let mesh = load_mesh_file(&path, &MeshOptions::default()).unwrap();
    let scen = Path::new(MESH_DIR).join("scene_mp_2p_01.mesh.scen");
    let problems = parse_scenario(BufReader::new(File::open(&scen).unwrap())).unwrap();
    let region = Region::from_mesh(&mesh, |_| true);
    let at_r = Parts::new(&region.erode(r).shape);
    let wide = wide_radius(r);
    let at_wide = Parts::new(&region.erode(wide).shape);
    let problems = problems
        .iter()
        .enumerate()
        .step_by(stride.max(1))
        .map(|(i, p)| (i, p.mesh_start(), p.mesh_goal()));
    // navstar's moved ends lie in its region, inside the region eroded by r.
    let in_region_at_r = |context: &str, s: DVec2, t: DVec2| {
        assert!(
            at_r.of(s).is_some(),
            "{context}: start outside the region at r"
        );
        assert!(
            at_r.of(t).is_some(),
            "{context}: goal outside the region at r"
        );
    };
    let counts = check_reachability(
        &mesh,
        r,
        "Iron Harvest",
        problems,
        |s, t| at_r.joined(s, t),
        |s, t| at_wide.joined(s, t),
        in_region_at_r,
    );
    eprintln!(
        "Iron Harvest at r = {r}: {} of {} problems partial in navstar; the oracle \
         finds no way for {} at r, {} at {wide:.4} ({} and {} parts)",
        counts.partial,
        counts.run,
        counts.cut_at_r,
        counts.cut_wide,
        at_r.parts.len(),
        at_wide.parts.len()
    );
}
