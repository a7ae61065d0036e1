//! RecastDemo's path test case (`TestCases/nav_mesh_test.txt`: 21 `pf` queries on
//! `nav_test.obj`) on the Recast navmesh of that level in `data/recast/`: navstar must
//! return a valid path for every query, no more than 10 % longer (in the ground plane)
//! than Detour's on the same mesh.

use std::path::{Path, PathBuf};

use navstar::glam::Vec3;
use navstar::{MeshOptions, NavMesh, PathOptions, PathStatus, Query};
use navstar_peers::detour::{DetourMesh, DetourQuery};
use navstar_peers::formats::read_recast_test_case;
use navstar_peers::path_length_2d;
use navstar_peers::polyanya::PolyanyaMesh;

fn data_dir() -> PathBuf {
    std::env::var_os("NAVSTAR_DATA").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data"),
        PathBuf::from,
    )
}

fn recast_mesh(name: &str) -> NavMesh {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../data/recast/{name}"));
    navstar::io::load_mesh_file(&path, &MeshOptions::default()).expect("recast navmesh loads")
}

#[test]
fn recast_demo_path_queries() {
    let mesh = recast_mesh("nav_test.navmesh.obj");
    let cases = read_recast_test_case(&data_dir().join("obj/nav_mesh_test.txt")).unwrap();
    assert_eq!(cases.len(), 21);
    let detour = DetourMesh::from_navmesh(&mesh, &Default::default()).unwrap();
    let mut detour_query = DetourQuery::new(&detour).unwrap();
    let polyanya = PolyanyaMesh::from_navmesh(&mesh).unwrap();
    let mut query = Query::new(&mesh);
    let options = PathOptions::default();
    println!(
        "| # | navstar | corners | length 2D | Detour corners | Detour length 2D | navstar / Detour | Polyanya (exact) |"
    );
    println!("|---:|---|---:|---:|---:|---:|---:|---:|");
    for (i, case) in cases.iter().enumerate() {
        let (start, end) = (Vec3::from_array(case.start), Vec3::from_array(case.end));
        detour_query.set_flags(case.include_flags, case.exclude_flags);
        let path = query.find_path(start, end, &options).unwrap();
        let corners: Vec<[f32; 3]> = path.corners.iter().map(|c| c.to_array()).collect();
        let status = path.status;

        // Valid: starts at the snapped start, ends at the snapped goal (or, when the
        // goal is on another island, at a reachable point), and every corner is on the
        // mesh.
        let snapped_start = mesh
            .nearest_point(start, f32::INFINITY, None)
            .unwrap()
            .point;
        assert!(
            corners[0] == snapped_start.to_array(),
            "query {i}: starts at {:?}",
            corners[0]
        );
        if status == PathStatus::Complete {
            let snapped_goal = mesh.nearest_point(end, f32::INFINITY, None).unwrap().point;
            assert!(
                *corners.last().unwrap() == snapped_goal.to_array(),
                "query {i}: ends at {:?}",
                corners.last()
            );
        }
        for c in &corners {
            let on_mesh = mesh
                .nearest_point(Vec3::from_array(*c), f32::INFINITY, None)
                .unwrap();
            assert!(
                on_mesh.distance < 1e-3,
                "query {i}: corner {c:?} is {} off the mesh",
                on_mesh.distance
            );
        }
        let length = path_length_2d(&mesh, &corners);

        let detour_path = detour_query.find_path(case.start, case.end);
        let detour_length = detour_path.as_ref().map(|p| path_length_2d(&mesh, p));
        let ratio = detour_length.map(|d| length / d);
        // For information: the exact any-angle length from the same snapped points.
        let exact = polyanya
            .path(corners[0], *corners.last().unwrap())
            .map(|p| p.1);
        println!(
            "| {i} | {status:?} | {} | {length:.3} | {} | {} | {} | {} |",
            corners.len(),
            detour_path.as_ref().map_or(0, Vec::len),
            detour_length.map_or("-".into(), |d| format!("{d:.3}")),
            ratio.map_or("-".into(), |r| format!("{r:.4}")),
            exact.map_or("-".into(), |e| format!("{e:.3}")),
        );
        if let Some(d) = detour_length.filter(|_| status == PathStatus::Complete) {
            assert!(
                length <= 1.10 * d + 1e-3,
                "query {i}: navstar {length} vs Detour {d}"
            );
        }
    }
}
