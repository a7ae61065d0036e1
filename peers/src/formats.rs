//! Minimal readers for the test files navstar itself does not read: RecastDemo test
//! cases, and OBJ level geometry as a triangle soup for Recast.
//!
//! Meshes (`.obj`, Polyanya `.mesh`, Moving AI `.map`) and scenarios (`.scen`) are read
//! with `navstar::io` ([`navstar::io::load_mesh_file`], [`navstar::io::parse_scenario`]).
//! The readers here are deliberately small: they trust the files and report the first
//! thing that does not parse.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// The level OBJs of the shared data set (`obj/`) that the peers bake with Recast, and the
/// scale each is baked at. The Godot demo places its level mesh at scale 2 (`LevelMesh`
/// transform in `3d/navigation/navmesh.tscn` of godot-demo-projects); at scale 1 the level
/// is about 10 x 8 m and RecastDemo's agent (radius 0.6 m, regions of at least 8 x 8
/// cells) leaves no polygon at all.
pub const RECAST_LEVELS: [(&str, f32); 5] = [
    ("dungeon.obj", 1.0),
    ("nav_test.obj", 1.0),
    ("undulating.obj", 1.0),
    ("godot_navigation_level_mesh.obj", 2.0),
    ("bridge.obj", 1.0),
];

/// The shared data set: `$NAVSTAR_DATA`, or `../shared/data` next to the repository.
pub fn shared_data_dir() -> PathBuf {
    std::env::var_os("NAVSTAR_DATA").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data"),
        PathBuf::from,
    )
}

/// Reads level `name` of the shared data set (`obj/NAME`) as a triangle soup for Recast,
/// every coordinate multiplied by `scale`.
///
/// # Errors
/// As [`read_obj_triangles`].
pub fn read_level(name: &str, scale: f32) -> io::Result<TriangleSoup> {
    let mut soup = read_obj_triangles(&shared_data_dir().join("obj").join(name))?;
    soup.verts.iter_mut().for_each(|c| *c *= scale);
    Ok(soup)
}

fn invalid(path: &Path, message: impl std::fmt::Display) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("{}: {message}", path.display()),
    )
}

/// A path query of a RecastDemo test case (`pf` line).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PathTestCase {
    /// Start point (Y-up world coordinates).
    pub start: [f32; 3],
    /// End point.
    pub end: [f32; 3],
    /// Polygon flags a path may use.
    pub include_flags: u16,
    /// Polygon flags a path must avoid.
    pub exclude_flags: u16,
}

/// Reads the `pf` lines of a RecastDemo test case file (other lines are ignored).
///
/// # Errors
/// I/O errors, or `InvalidData` for a `pf` line without 6 numbers and 2 hex flags.
pub fn read_recast_test_case(path: &Path) -> io::Result<Vec<PathTestCase>> {
    let text = fs::read_to_string(path)?;
    let mut cases = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.first() != Some(&"pf") {
            continue;
        }
        let bad = || invalid(path, format!("line {}: bad pf line", number + 1));
        if fields.len() != 9 {
            return Err(bad());
        }
        let mut xyz = [0f32; 6];
        for (value, field) in xyz.iter_mut().zip(&fields[1..7]) {
            *value = field.parse().map_err(|_| bad())?;
        }
        let flag = |s: &str| u16::from_str_radix(s.trim_start_matches("0x"), 16);
        cases.push(PathTestCase {
            start: [xyz[0], xyz[1], xyz[2]],
            end: [xyz[3], xyz[4], xyz[5]],
            include_flags: flag(fields[7]).map_err(|_| bad())?,
            exclude_flags: flag(fields[8]).map_err(|_| bad())?,
        });
    }
    Ok(cases)
}

/// A triangle soup (Recast input): `verts` holds x, y, z per vertex, `tris` three vertex
/// indices per triangle.
#[derive(Debug, Clone, Default)]
pub struct TriangleSoup {
    /// Vertex coordinates, 3 per vertex.
    pub verts: Vec<f32>,
    /// Vertex indices, 3 per triangle.
    pub tris: Vec<i32>,
}

/// Reads the geometry of an OBJ file with navstar's parser and fan-triangulates its faces
/// (level OBJs have quads and n-gons), for Recast.
///
/// # Errors
/// I/O errors, or `InvalidData` with the parser's message.
pub fn read_obj_triangles(path: &Path) -> io::Result<TriangleSoup> {
    let file = fs::File::open(path)?;
    let soup = navstar::io::parse_obj(io::BufReader::new(file))
        .map_err(|e| invalid(path, e.to_string()))?;
    let verts = soup.vertices.iter().flat_map(|v| v.to_array()).collect();
    let mut tris = Vec::new();
    for face in soup.polygons() {
        for i in 1..face.len() - 1 {
            tris.extend([face[0], face[i], face[i + 1]].map(|v| v as i32));
        }
    }
    Ok(TriangleSoup { verts, tris })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_file(name: &str, text: &str) -> std::path::PathBuf {
        let path =
            std::env::temp_dir().join(format!("navstar-peers-{}-{name}", std::process::id()));
        fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn recast_test_case() {
        let path = temp_file("t.txt", "s Solo Mesh\nf x.obj\npf 1 2 3 -4 -5 -6 0x3 0x0\n");
        let cases = read_recast_test_case(&path).unwrap();
        assert_eq!(cases.len(), 1);
        assert_eq!(cases[0].end, [-4.0, -5.0, -6.0]);
        assert_eq!((cases[0].include_flags, cases[0].exclude_flags), (3, 0));
        fs::remove_file(path).unwrap();
    }
}
