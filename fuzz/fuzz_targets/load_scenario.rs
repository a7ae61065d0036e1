//! Fuzzes the Moving AI scenario loader (`navstar::io::parse_scenario_bytes`) with
//! arbitrary bytes.
//!
//! Checks: no panic; the same result when the streaming parser is fed a few bytes at a
//! time; parse errors name an existing line; every accepted problem has finite
//! coordinates and length, and a map file name that is the tail of its map path; and
//! the first problems, run as queries on the bundled `data/arena.mesh`, give valid
//! answers (a finite point is never "not on mesh" with the default options).
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use navstar::io::{MeshFormat, load_mesh, parse_scenario, parse_scenario_bytes};
use navstar::{MeshOptions, NavMesh, PathOptions, Query};
use navstar_fuzz::{check_answer, check_parse_result, parse_in_pieces};

/// The bundled Polyanya arena mesh, loaded once.
fn arena() -> &'static NavMesh {
    static MESH: OnceLock<NavMesh> = OnceLock::new();
    MESH.get_or_init(|| {
        let bytes: &[u8] = include_bytes!("../../data/arena.mesh");
        load_mesh(bytes, MeshFormat::PolyanyaMesh, &MeshOptions::default())
            .expect("data/arena.mesh loads")
    })
}

fuzz_target!(|data: &[u8]| {
    let parsed = parse_scenario_bytes(data);
    check_parse_result(data, &parsed, &parse_in_pieces(data, parse_scenario));
    let Ok(problems) = parsed else { return };
    for p in &problems {
        assert!(p.start.is_finite() && p.goal.is_finite() && p.optimal_length.is_finite());
        let name = p.map_file_name();
        assert!(
            p.map.ends_with(name) && !name.contains(['/', '\\']),
            "{p:?}"
        );
    }
    let mesh = arena();
    let mut query = Query::new(mesh);
    let options = PathOptions::default();
    for p in problems.iter().take(4) {
        for (start, goal) in [
            (p.mesh_start(), p.mesh_goal()),
            (p.grid_start(), p.grid_goal()),
        ] {
            let answer = query
                .find_path_vec(start, goal, &options)
                .map(|path| (path.corners, path.status));
            check_answer(mesh, start, goal, &options, &answer);
        }
    }
});
