//! The turns of a disc's path round wall corners (`Path::arcs`): on the L turn the one
//! arc goes round the one convex wall corner, in both modes, sliced or not; on random
//! rectangle fields every bend of a path lies on an arc round a wall vertex of the mesh,
//! at between `r` and the octagon's reach from it; without a radius there are none.

use glam::{DVec2, Vec3};
use navstar::{NavMesh, OwnedPath, PathArc, PathMode, PathOptions, PathStatus, Query, SliceStatus};

use crate::common::{Domain, Rng};
use crate::radius::outer;
use crate::scenes;

/// How far a corner may lie outside `[r, outer(r)]` from its arc's centre (f32 corners).
const SLACK: f64 = 1e-4;

fn options(r: f32, mode: PathMode) -> PathOptions {
    PathOptions::default().with_mode(mode).with_agent_radius(r)
}

/// The ground point of a world point of `mesh`.
fn ground(mesh: &NavMesh, p: Vec3) -> DVec2 {
    mesh.up_axis().ground(p).as_dvec2()
}

/// Whether the path bends at corner `i` (by more than a hair).
fn bends(mesh: &NavMesh, corners: &[Vec3], i: usize) -> bool {
    let (a, b, c) = (
        ground(mesh, corners[i - 1]),
        ground(mesh, corners[i]),
        ground(mesh, corners[i + 1]),
    );
    let (u, v) = ((b - a).normalize_or_zero(), (c - b).normalize_or_zero());
    u.perp_dot(v).abs() > 1e-3
}

/// Checks the arcs of `path` (for radius `r` on `mesh`, whose wall corners are
/// `walls`): in order, apart, inside the path, each corner on one at between `r` and
/// the octagon's reach from its centre, each centre a wall vertex, and, when `taut` (the
/// exact mode: a shortest path bends only round wall corners), every bend of the path on
/// an arc. (The default mode's path is taut in its corridor only: where the corridor
/// goes round a vertex between polygons, the path may bend there too.)
#[track_caller]
fn check_arcs(
    mesh: &NavMesh,
    walls: &[DVec2],
    r: f32,
    path: &OwnedPath,
    taut: bool,
    context: &str,
) {
    let n = path.corners.len() as u32;
    let mut covered = vec![false; path.corners.len()];
    let mut after = 0;
    for arc in &path.arcs {
        assert!(
            arc.first_corner > after
                && arc.first_corner <= arc.last_corner
                && arc.last_corner + 1 < n,
            "{context}: arc {arc:?} out of order or not inside the path of {n} corners"
        );
        after = arc.last_corner;
        assert_eq!(arc.radius, r, "{context}: {arc:?}");
        let centre = ground(mesh, arc.centre);
        assert!(
            walls.iter().any(|w| w.distance(centre) < 1e-5),
            "{context}: the centre of {arc:?} is no wall vertex"
        );
        for i in arc.first_corner..=arc.last_corner {
            covered[i as usize] = true;
            let d = ground(mesh, path.corners[i as usize]).distance(centre);
            let r = f64::from(r);
            assert!(
                d >= r - SLACK && d <= outer(r) + SLACK,
                "{context}: corner {i} at {d} from the centre of {arc:?} (r = {r})"
            );
        }
    }
    let inner = covered
        .iter()
        .enumerate()
        .skip(1)
        .take(covered.len().saturating_sub(2));
    for (i, &on_arc) in inner {
        if taut && bends(mesh, &path.corners, i) {
            assert!(
                on_arc,
                "{context}: the bend at corner {i} is on no arc: {path:?}"
            );
        }
    }
}

/// The ground points of the vertices where two walls of `domain` meet.
fn wall_vertices(domain: &Domain) -> Vec<DVec2> {
    domain
        .boundary
        .iter()
        .flat_map(|&(a, b)| [a, b])
        .map(|v| domain.ground[v as usize])
        .collect()
}

/// The same query sliced into calls of 3 expansions.
fn sliced(query: &mut Query, start: Vec3, goal: Vec3, options: &PathOptions) -> OwnedPath {
    if query.begin_path(start, goal, options).unwrap() == SliceStatus::InProgress {
        while query.advance_path(3).unwrap().status == SliceStatus::InProgress {}
    }
    query.finish_path().unwrap().to_owned_path()
}

#[test]
fn l_turn_has_one_arc_round_its_corner() {
    let mesh = scenes::l_turn();
    let walls = wall_vertices(&Domain::new(&mesh));
    let up = mesh.up_axis();
    let (start, goal) = (
        up.place([1.0, 1.0].into(), 0.0),
        up.place([9.0, 9.0].into(), 0.0),
    );
    let mut query = Query::new(&mesh);
    for mode in [PathMode::Funnel, PathMode::Optimal] {
        for r in [0.25f32, 0.5, 0.9] {
            let options = options(r, mode);
            let path = query.find_path_vec(start, goal, &options).unwrap();
            let context = format!("{mode:?}, r = {r}");
            assert_eq!(path.status, PathStatus::Complete, "{context}");
            assert_eq!(path.arcs.len(), 1, "{context}: {:?}", path.arcs);
            let arc: PathArc = path.arcs[0];
            assert_eq!(ground(&mesh, arc.centre), DVec2::new(8.0, 2.0), "{context}");
            // The turn is about 254 degrees round the corner... of which the path keeps
            // only the part between its two tangents: at least one corner, at most
            // all the octagon's.
            assert!(arc.last_corner - arc.first_corner < 8, "{context}: {arc:?}");
            check_arcs(&mesh, &walls, r, &path, true, &context);
            assert_eq!(
                sliced(&mut query, start, goal, &options),
                path,
                "{context}: sliced"
            );
        }
        // Without a radius: no arcs.
        let bare = query
            .find_path_vec(start, goal, &PathOptions::default().with_mode(mode))
            .unwrap();
        assert!(bare.arcs.is_empty(), "{mode:?}: {:?}", bare.arcs);
    }
    // The nearest target's path has them too.
    let nearest = query
        .find_nearest_target(start, &[goal], &options(0.5, PathMode::Funnel))
        .unwrap();
    assert_eq!(nearest.path.arcs.len(), 1);
}

#[test]
fn every_bend_in_rectangle_fields_is_on_an_arc() {
    let mut arcs = 0;
    let mut paths = 0;
    for seed in 0..120u64 {
        let mut rng = Rng(0xa4c5 + seed);
        let mesh = scenes::rectangle_field(&mut rng);
        let walls = wall_vertices(&Domain::new(&mesh));
        let r = 0.05 + 0.6 * rng.unit();
        let up = mesh.up_axis();
        let mut point = || up.place([rng.unit() * 10.0, rng.unit() * 8.0].into(), 0.0);
        let (start, goal) = (point(), point());
        let mut query = Query::new(&mesh);
        for mode in [PathMode::Funnel, PathMode::Optimal] {
            let options = options(r, mode).with_allow_partial(true);
            let Ok(path) = query.find_path_vec(start, goal, &options) else {
                continue;
            };
            paths += 1;
            arcs += path.arcs.len();
            let context = format!("seed {seed}, {mode:?}, r = {r}");
            check_arcs(&mesh, &walls, r, &path, mode == PathMode::Optimal, &context);
        }
    }
    eprintln!("{paths} paths, {arcs} arcs");
    assert!(
        paths >= 150 && arcs >= paths / 2,
        "{paths} paths, {arcs} arcs"
    );
}
