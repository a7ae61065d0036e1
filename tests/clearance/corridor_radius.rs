//! The corridor that follows a disc-shaped agent, changed ahead of it (issue 17): with
//! [`PathCorridor::set_agent_radius`], repair searches with the radius (a door narrower
//! than the disc is refused, as a fresh search with the radius refuses it), the corners
//! after repair and after shortening keep the radius from every wall (oracle B's wall
//! distance), the repaired way is no shorter than oracle B's exact shortest way for the
//! disc, and the corners with details are the corners.

use glam::{DVec2, Vec3};
use navstar::{NavMesh, PathCorridor, PathOptions, PathStatus, Query, Repair};

use crate::clearance_oracle::tangent::TangentOracle;
use crate::common::{Domain, Soup, ground_length, p};

/// The polygon of the unit square with low corner (x, z) of a mesh from ASCII.
fn cell(mesh: &NavMesh, x: f32, z: f32) -> u32 {
    mesh.nearest_point(p(x + 0.5, z + 0.5), 0.1, None)
        .unwrap()
        .polygon
}

/// The corridor of the path for a disc of radius `r` from `s` to `t`, following it.
fn corridor_for(mesh: &NavMesh, s: Vec3, t: Vec3, r: f32) -> PathCorridor {
    let mut query = Query::new(mesh);
    let path = query
        .find_path(s, t, &PathOptions::default().with_agent_radius(r))
        .unwrap();
    assert_eq!(path.status, PathStatus::Complete);
    let polygons: Vec<u32> = query.corridor().collect();
    let mut corridor = PathCorridor::new(mesh, polygons[0], s).unwrap();
    corridor.set_corridor(t, &polygons).unwrap();
    corridor.set_agent_radius(r).unwrap();
    corridor
}

/// Asserts that every leg from the corridor's position through `corners` keeps `r`
/// from the walls of `oracle`'s domain (sampled every 1/40 of a leg).
#[track_caller]
fn assert_clear(oracle: &TangentOracle, from: Vec3, corners: &[Vec3], r: f32, what: &str) {
    let g = |v: Vec3| DVec2::new(f64::from(v.x), f64::from(v.z));
    let mut at = g(from);
    for &c in corners {
        let to = g(c);
        for k in 0..=40 {
            let q = at.lerp(to, f64::from(k) / 40.0);
            let gap = oracle.wall_distance(q);
            assert!(
                gap >= f64::from(r) - 1e-4,
                "{what}: {q} on {at} -> {to} is {gap} from a wall (r = {r})"
            );
        }
        at = to;
    }
}

/// Two rooms (z in 0..2 and 3..5, x in 0..8) joined by a wall row z in 2..3 with a
/// door two wide (x in 1..3) and one one wide (x in 6..7).
fn two_doors() -> NavMesh {
    Soup::from_ascii(&["........", "........", "#..###.#", "........", "........"]).build()
}

#[test]
fn repair_refuses_a_door_narrower_than_the_disc_as_a_fresh_search_does() {
    let mesh = two_doors();
    let (s, t) = (p(4.5, 0.8), p(4.5, 4.2));
    let r = 0.6;
    let wide = [cell(&mesh, 1.0, 2.0), cell(&mesh, 2.0, 2.0)];
    let narrow = cell(&mesh, 6.0, 2.0);
    let mut disc = corridor_for(&mesh, s, t, r);
    assert!(disc.polygons().iter().any(|q| wide.contains(q)));
    // A point agent on the same corridor, for contrast.
    let mut point = corridor_for(&mesh, s, t, r);
    point.set_agent_radius(0.0).unwrap();
    for door in wide {
        mesh.set_polygon_flags(door, 0).unwrap();
    }
    let options = PathOptions::default();
    let mut query = Query::new(&mesh);
    // The point goes through the narrow door.
    assert!(matches!(
        point.repair(&mut query, &options).unwrap(),
        Repair::Repaired { .. }
    ));
    assert!(point.polygons().contains(&narrow));
    // The disc does not fit through it (1 < 2r): a fresh search with the radius finds no
    // way, and the repair reports the target cut off, its corridor staying below.
    // (The fresh search ends at the point nearest the target the disc can reach, 2r
    // below the wall row: a partial path.)
    let fresh = query
        .find_path(s, t, &options.clone().with_agent_radius(r))
        .unwrap()
        .to_owned_path();
    assert_eq!(fresh.status, PathStatus::Partial);
    let reachable = *fresh.corners.last().unwrap();
    assert!(reachable.distance(p(4.5, 1.4)) < 1e-4, "{reachable}");
    // The options' own radius (0 here) gives way to the corridor's.
    assert!(matches!(
        disc.repair(&mut query, &options).unwrap(),
        Repair::CutOff { .. }
    ));
    assert!(!disc.polygons().contains(&narrow));
    assert!(disc.is_valid(usize::MAX, &options.filter));
    assert!(disc.polygons().iter().all(|&q| !wide.contains(&q)));
    // The target moved where the fresh search ends.
    assert!(
        disc.target().distance(reachable) < 1e-4,
        "{}",
        disc.target()
    );
    // Its corners keep the radius from the walls.
    let domain = Domain::new(&mesh);
    let oracle = TangentOracle::new(&domain, f64::from(r));
    let corners = disc.corners(64).to_vec();
    assert_clear(&oracle, disc.position(), &corners, r, "cut off");
    // The narrow door is refused by the fresh search at the radius, and taken just
    // below it (the door's own width).
    let mut query = Query::new(&mesh);
    let just = query.find_path(s, t, &options.clone().with_agent_radius(0.499));
    assert_eq!(
        just.map(|path| path.status).ok(),
        Some(PathStatus::Complete)
    );
}

/// A 6 x 6 room round a 2 x 2 pillar (x, z in 2..4), as unit squares.
fn pillar_room() -> NavMesh {
    Soup::from_ascii(&["......", "......", "..##..", "..##..", "......", "......"]).build()
}

#[test]
fn repaired_and_shortened_corners_keep_the_radius_round_a_pillar() {
    let mesh = pillar_room();
    let (s, t) = (p(0.8, 3.0), p(5.2, 3.0));
    for r in [0.3f32, 0.5, 0.7] {
        let mut corridor = corridor_for(&mesh, s, t, r);
        // Close the square the corridor passes beside the pillar (below or above it).
        let below = corridor.polygons().contains(&cell(&mesh, 2.0, 1.0));
        let z = if below { 1.0 } else { 4.0 };
        let closed = [cell(&mesh, 2.0, z), cell(&mesh, 3.0, z)];
        for q in closed {
            mesh.set_polygon_flags(q, 0).unwrap();
        }
        let admit = |q: u32| !closed.contains(&q);
        let mut query = Query::new(&mesh);
        let options = PathOptions::default();
        let outcome = corridor.repair(&mut query, &options).unwrap();
        assert!(matches!(outcome, Repair::Repaired { .. }), "r = {r}");
        assert!(corridor.is_valid(usize::MAX, &options.filter));
        assert!(corridor.polygons().iter().all(|&q| admit(q)));
        assert_eq!(corridor.target(), t);
        // The corners keep r from the walls of the mesh (polygons closed at run time
        // are not walls for the corners: `set_agent_radius`).
        let domain = Domain::new(&mesh);
        let oracle = TangentOracle::new(&domain, f64::from(r));
        let closed_domain = Domain::layer(&mesh, admit);
        let closed_oracle = TangentOracle::new(&closed_domain, f64::from(r));
        let corners = corridor.corners(64).to_vec();
        assert_clear(&oracle, corridor.position(), &corners, r, "repaired");
        assert!(corners.last().unwrap().distance(t) < 1e-4);
        // No shorter than the exact shortest way of the disc in the open room (oracle
        // B), and no longer than the exact way round the closed squares by more than a
        // quarter plus the chords' excess round the corners: the repair rejoins the old
        // corridor past the closed squares (below them, under the pillar), where a fresh
        // search would go above the pillar.
        let g = |v: Vec3| DVec2::new(f64::from(v.x), f64::from(v.z));
        let open = oracle.shortest(g(corridor.position()), g(t)).unwrap();
        let exact = closed_oracle
            .shortest(g(corridor.position()), g(t))
            .unwrap();
        let mut walked = vec![corridor.position()];
        walked.extend_from_slice(&corners);
        let length = ground_length(mesh.up_axis(), &walked);
        let excess = navstar::ARC_LENGTH_EXCESS * std::f64::consts::PI * f64::from(r);
        assert!(
            length >= open - 1e-4 && length <= 1.25 * exact + excess + 1e-3,
            "r = {r}: repaired {length}, exact {exact}, open {open}"
        );
        // The corners with details are the same corners, the last flagged END.
        let (detailed, details) = corridor.corners_with_details(64, &options);
        assert_eq!(detailed, corners);
        assert_eq!(details.last().unwrap().flags, navstar::CornerFlags::END);
        // Shortening towards the last corner keeps the corners clear.
        corridor
            .optimize_visibility(*corners.last().unwrap(), &options.filter)
            .unwrap();
        let shortened = corridor.corners(64).to_vec();
        assert_clear(&oracle, corridor.position(), &shortened, r, "shortened");
        for q in closed {
            mesh.set_polygon_flags(q, 1).unwrap();
        }
    }
}

#[test]
fn optimize_takes_no_shortcut_the_disc_cannot_take_straight() {
    // Three rows of five squares; the square x in 2..3 of the lowest row is a hole.
    let mesh = Soup::from_ascii(&["..#..", ".....", "....."]).build();
    let (s, t) = (p(0.8, 1.3), p(4.2, 1.3));
    let up: Vec<u32> = [(0, 1), (0, 2), (1, 2), (2, 2), (3, 2), (4, 2), (4, 1)]
        .iter()
        .map(|&(x, z)| cell(&mesh, x as f32, z as f32))
        .collect();
    let filter = navstar::QueryFilter::default();
    let mut corridor = PathCorridor::new(&mesh, up[0], s).unwrap();
    corridor.set_corridor(t, &up).unwrap();
    // A point sees the target along z = 1.3, 0.3 above the hole.
    let mut point = corridor.clone();
    assert!(point.optimize_visibility(t, &filter).unwrap());
    assert!(point.polygons().len() < up.len());
    // A disc of radius 0.6 would touch the hole's edge: the corridor is kept.
    corridor.set_agent_radius(0.6).unwrap();
    assert!(!corridor.optimize_visibility(t, &filter).unwrap());
    assert_eq!(corridor.polygons(), up);
    // Of radius 0.25 it passes: shortened like the point's.
    corridor.set_agent_radius(0.25).unwrap();
    assert!(corridor.optimize_visibility(t, &filter).unwrap());
    assert_eq!(corridor.polygons(), point.polygons());
}
