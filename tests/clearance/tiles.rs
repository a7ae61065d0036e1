//! A radius on a world of tiles: its snapshots answer as the same polygons built as
//! one mesh, across tile borders, while tiles are added and removed (each snapshot
//! erodes its own polygons; none is served another's eroded copy).

use glam::{DVec2, Vec3};
use navstar::{
    MeshOptions, NavMesh, PathMode, PathOptions, PathStatus, Query, QueryFilter, World,
    WorldOptions,
};

use crate::common::{Domain, Soup};
use crate::radius::{CLEARANCE, LENGTH, clearance, length, path};

/// A floor 20 x 10 of unit cells with a few obstacles (`#`), cut along `x` into four
/// tiles 5 wide whose border edges meet one to one.
const MAP: [&str; 10] = [
    "....................",
    "....................",
    "...##.......#.......",
    "...##.......#...##..",
    ".........#......##..",
    ".........#..........",
    "..#.................",
    "..#......####.......",
    "....................",
    "....................",
];

/// The map's cells in the columns of the tiles `kept` (tile `k`: columns `5k..5k + 5`)
/// as one mesh.
fn floor(kept: &[usize]) -> NavMesh {
    let rows: Vec<String> = MAP
        .iter()
        .map(|row| {
            row.chars()
                .enumerate()
                .map(|(c, ch)| if kept.contains(&(c / 5)) { ch } else { ' ' })
                .collect()
        })
        .collect();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    Soup::from_ascii(&rows).build()
}

/// [`floor`] built for agents of radius `baked` ([`MeshOptions::agent_radius`]).
fn baked_floor(kept: &[usize], baked: f32) -> NavMesh {
    let rows: Vec<String> = MAP
        .iter()
        .map(|row| {
            row.chars()
                .enumerate()
                .map(|(c, ch)| if kept.contains(&(c / 5)) { ch } else { ' ' })
                .collect()
        })
        .collect();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    Soup::from_ascii(&rows)
        .try_build(&MeshOptions::default().with_agent_radius(baked))
        .unwrap()
}

/// Queries across the tiles: ground points admissible at both radii.
const QUERIES: [((f64, f64), (f64, f64)); 5] = [
    ((0.6, 0.6), (19.4, 9.4)),
    ((1.0, 9.0), (18.5, 1.0)),
    ((4.5, 5.0), (10.5, 5.5)),
    ((12.0, 0.8), (11.0, 9.2)),
    ((16.5, 5.5), (7.0, 1.5)),
];

/// Whether `world` answers every query as `whole` (the same polygons as one mesh):
/// the same status in both modes, the same exact-mode length, and default-mode paths
/// that keep the radius from `whole`'s walls.
#[track_caller]
fn same_answers(world: &NavMesh, whole: &NavMesh, r: f64, stage: &str) -> usize {
    let domain = Domain::new(whole);
    let filter = QueryFilter::default();
    let mut complete = 0;
    for ((sx, sz), (tx, tz)) in QUERIES {
        let (s, t) = (DVec2::new(sx, sz), DVec2::new(tx, tz));
        let context = format!("{stage}, r = {r}: {s} -> {t}");
        let (status, corners) = path(whole, r, s, t, PathMode::Optimal, &filter).unwrap();
        let (tiled_status, tiled) = path(world, r, s, t, PathMode::Optimal, &filter).unwrap();
        assert_eq!(status, tiled_status, "{context}");
        let end = |c: &[DVec2]| c[c.len() - 1];
        assert!(
            end(&corners).distance(end(&tiled)) < LENGTH,
            "{context}: {corners:?} vs {tiled:?}"
        );
        if status == PathStatus::Complete {
            complete += 1;
            let (a, b) = (length(&corners), length(&tiled));
            assert!((a - b).abs() < LENGTH, "{context}: {a} vs {b}");
        }
        let (funnel_status, funnel) = path(world, r, s, t, PathMode::Funnel, &filter).unwrap();
        assert_eq!(funnel_status, status, "{context}");
        let gap = clearance(&domain, &funnel);
        assert!(gap >= r - CLEARANCE, "{context}: {gap} from a wall");
    }
    complete
}

#[test]
fn tiles_added_and_removed_answer_as_one_mesh() {
    let world = World::new(&WorldOptions::default().with_max_tiles(8)).unwrap();
    let tiles: Vec<_> = (0..4)
        .map(|k| world.add_tile(&floor(&[k])).unwrap())
        .collect();
    let whole = floor(&[0, 1, 2, 3]);
    let all = world.snapshot();
    for r in [0.3, 0.45] {
        assert_eq!(same_answers(&all, &whole, r, "all tiles"), QUERIES.len());
    }
    // Tile 1 removed: the left column of tiles is cut off from the rest. The snapshot
    // taken before keeps its answers (and its eroded copies).
    world.remove_tile(tiles[1]).unwrap();
    let without = world.snapshot();
    let cut = same_answers(&without, &floor(&[0, 2, 3]), 0.3, "tile 1 removed");
    assert!(cut < QUERIES.len() && cut > 0, "{cut}");
    assert_eq!(
        same_answers(&all, &whole, 0.3, "the old snapshot"),
        QUERIES.len()
    );
    // Back again, in another slot: joined as before.
    world.add_tile(&floor(&[1])).unwrap();
    let again = world.snapshot();
    assert_eq!(
        same_answers(&again, &whole, 0.3, "tile 1 back"),
        QUERIES.len()
    );
    // Cells of column 12 refused by their flags in both (the flag generation, shared
    // by the world's snapshots, keys the copies of a filter that refuses some polygon):
    // the map is cut at x = 12. Then opened again.
    let cells: Vec<Vec3> = (0..10)
        .filter(|&row| MAP[row].as_bytes()[12] == b'.')
        .map(|row| Vec3::new(12.5, 0.0, row as f32 + 0.5))
        .collect();
    let set = |mesh: &NavMesh, flags: u32| {
        for &c in &cells {
            let polygon = mesh.nearest_point(c, 0.1, None).unwrap().polygon;
            mesh.set_polygon_flags(polygon, flags).unwrap();
        }
    };
    set(&again, 0);
    set(&whole, 0);
    let cut = same_answers(&again, &whole, 0.3, "column 12 refused");
    assert!(cut < QUERIES.len() && cut > 0, "{cut}");
    set(&again, 1);
    set(&whole, 1);
    assert_eq!(
        same_answers(&again, &whole, 0.3, "column 12 open"),
        QUERIES.len()
    );
    // Tile 3 replaced by a floor with a wall across it: the far corner is cut off.
    let mut walled: Vec<String> = MAP.iter().map(|row| row.to_string()).collect();
    for row in &mut walled {
        row.replace_range(17..18, "#");
    }
    let walled: Vec<&str> = walled.iter().map(String::as_str).collect();
    let pick = |kept: usize| -> NavMesh {
        let rows: Vec<String> = walled
            .iter()
            .map(|row| {
                row.chars()
                    .enumerate()
                    .map(|(c, ch)| if c / 5 == kept { ch } else { ' ' })
                    .collect()
            })
            .collect();
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        Soup::from_ascii(&rows).build()
    };
    world.replace_tile(tiles[3], &pick(3)).unwrap();
    let replaced = world.snapshot();
    let whole_walled = Soup::from_ascii(&walled).build();
    let cut = same_answers(&replaced, &whole_walled, 0.3, "tile 3 walled");
    assert!(cut < QUERIES.len(), "{cut}");
}

/// Exact-mode answers of `mesh` to [`QUERIES`] for an agent of radius `r`: status and
/// length.
fn exact_answers(mesh: &NavMesh, r: f32) -> Vec<(PathStatus, f32)> {
    let options = PathOptions::default()
        .with_mode(PathMode::Optimal)
        .with_agent_radius(r);
    let mut query = Query::new(mesh);
    QUERIES
        .iter()
        .map(|&((sx, sz), (tx, tz))| {
            let s = Vec3::new(sx as f32, 0.0, sz as f32);
            let t = Vec3::new(tx as f32, 0.0, tz as f32);
            let path = query.find_path_vec(s, t, &options).unwrap();
            (path.status, path.length())
        })
        .collect()
}

#[test]
fn a_world_of_tiles_built_for_a_radius_erodes_only_the_difference() {
    let world = World::new(&WorldOptions::default().with_max_tiles(8)).unwrap();
    let tiles: Vec<_> = (0..4)
        .map(|k| world.add_tile(&baked_floor(&[k], 0.2)).unwrap())
        .collect();
    let snapshot = world.snapshot();
    assert_eq!(snapshot.agent_radius(), 0.2);
    // Radius 0.45 on tiles built for 0.2 answers as the same floor built whole for 0.2.
    let whole = baked_floor(&[0, 1, 2, 3], 0.2);
    let (tiled, one) = (exact_answers(&snapshot, 0.45), exact_answers(&whole, 0.45));
    for (i, (a, b)) in tiled.iter().zip(&one).enumerate() {
        assert_eq!(a.0, b.0, "query {i}");
        assert!(
            (a.1 - b.1).abs() <= 1e-4 * b.1.max(1.0),
            "query {i}: {a:?} {b:?}"
        );
    }
    // ... and not as tiles built for radius 0 (eroded by the whole 0.45).
    let plain = World::new(&WorldOptions::default().with_max_tiles(8)).unwrap();
    for k in 0..4 {
        plain.add_tile(&floor(&[k])).unwrap();
    }
    assert_ne!(exact_answers(&plain.snapshot(), 0.45), tiled);
    // A tile built for another radius is refused while others are present...
    let error = world.add_tile(&floor(&[1])).unwrap_err();
    assert!(error.to_string().contains("agent radius"), "{error}");
    let error = world.replace_tile(tiles[0], &floor(&[0])).unwrap_err();
    assert!(error.to_string().contains("agent radius"), "{error}");
    // ... and taken once it would be the only one.
    for &t in &tiles[1..] {
        world.remove_tile(t).unwrap();
    }
    world.replace_tile(tiles[0], &floor(&[0])).unwrap();
    assert_eq!(world.snapshot().agent_radius(), 0.0);
}
