//! The Polyanya mesh built from navstar's polygons must answer like the one the
//! `polyanya` crate loads from the same `.mesh` file (its own vertex fans and flags).

use std::path::{Path, PathBuf};

use navstar::MeshOptions;
use navstar_peers::polyanya::PolyanyaMesh;

fn data_dir() -> PathBuf {
    std::env::var_os("NAVSTAR_DATA").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data"),
        PathBuf::from,
    )
}

#[test]
fn same_lengths_as_polyanyas_own_loader() {
    let scen_file = std::fs::File::open(data_dir().join("grid/arena.map.scen")).unwrap();
    let scen = navstar::io::parse_scenario(std::io::BufReader::new(scen_file)).unwrap();
    for name in ["arena.mesh", "arena-merged.mesh"] {
        let path = data_dir().join("mesh").join(name);
        let mesh = navstar::io::load_mesh_file(&path, &MeshOptions::default()).unwrap();
        let ours = PolyanyaMesh::from_navmesh(&mesh).unwrap();
        let file = polyanya::PolyanyaFile::from_file(path.to_str().unwrap());
        let theirs = polyanya::Mesh::try_from(file).unwrap();
        let mut compared = 0;
        for p in &scen {
            let (s, g) = (p.grid_start(), p.grid_goal());
            let a = ours.path(s.to_array(), g.to_array()).map(|p| p.1);
            let b = theirs
                .path(glam33::Vec2::new(s.x, s.y), glam33::Vec2::new(g.x, g.y))
                .map(|p| p.length);
            match (a, b) {
                (Some(a), Some(b)) => {
                    assert!((a - b).abs() <= 1e-4 * b.max(1.0), "{name}: {a} vs {b}");
                    // Any-angle is never longer than the octile grid length.
                    assert!(
                        f64::from(a) <= p.optimal_length + 1e-3,
                        "{name}: {a} vs octile"
                    );
                    compared += 1;
                }
                (a, b) => assert_eq!(a.is_some(), b.is_some(), "{name}: {s:?} -> {g:?}"),
            }
        }
        assert!(compared > 100, "{name}: only {compared} paths");
    }
}
