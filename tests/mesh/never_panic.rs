//! The byte parsers never panic: random bytes, soups of the formats' tokens and edited
//! valid files go through every parser, and whatever parses through the mesh builders.

use navstar::MeshOptions;
use navstar::io::{
    LoadError, PolygonSoup, parse_movingai_map_bytes, parse_obj_bytes, parse_polyanya_mesh_bytes,
    parse_scenario_bytes,
};
use proptest::prelude::*;

use crate::{SMALL_V3, doubled_area};

/// Tokens that exercise the grammars: keywords, numbers at the edges, separators.
const VOCABULARY: &[&str] = &[
    "v",
    "f",
    "vt",
    "mesh",
    "2",
    "3",
    "0",
    "1",
    "-1",
    "-2",
    "4",
    "1/2",
    "1//3",
    "-1/-1/-1",
    "/",
    "//",
    "#",
    "nan",
    "inf",
    "-0",
    "1e39",
    "0.5",
    "4294967295",
    "4294967296",
    "-9223372036854775808",
    "99999999999999999999",
    " ",
    "\t",
    "\n",
    "\r\n",
    "\r",
    "\u{e9}",
];

fn vocabulary_text() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(proptest::sample::select(VOCABULARY), 0..80)
        .prop_map(|words| words.join(" ").into_bytes())
}

/// `seed` with up to five byte edits.
fn mutated(seed: &'static [u8]) -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(edit(), 0..6).prop_map(move |edits| mutate(seed, &edits))
}

const ARENA: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../shared/data/mesh/arena-merged.mesh"
));
const COLLINEAR: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../shared/data/mesh/tests/bad-collinear.mesh"
));

/// Parses, and builds whatever parses: neither step may panic.
fn exercise(parse: fn(&[u8]) -> Result<PolygonSoup, LoadError>, bytes: &[u8]) {
    if let Ok(soup) = parse(bytes) {
        let _ = soup.clone().into_mesh(&MeshOptions::default());
        let mut welding = MeshOptions::default();
        welding.weld_distance = 0.5;
        let _ = soup.into_mesh(&welding);
    }
}

proptest! {
    #![proptest_config(crate::common::proptest_config(1000))]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        exercise(parse_obj_bytes, &bytes);
        exercise(parse_polyanya_mesh_bytes, &bytes);
    }

    #[test]
    fn token_soup_never_panics(bytes in vocabulary_text()) {
        exercise(parse_obj_bytes, &bytes);
        exercise(parse_polyanya_mesh_bytes, &bytes);
    }

    #[test]
    fn mutated_polyanya_files_never_panic(arena in mutated(ARENA), collinear in mutated(COLLINEAR)) {
        exercise(parse_polyanya_mesh_bytes, &arena);
        exercise(parse_polyanya_mesh_bytes, &collinear);
    }

    #[test]
    fn mutated_obj_files_never_panic(bytes in mutated(crate::obj::FLOOR_OBJ.as_bytes())) {
        exercise(parse_obj_bytes, &bytes);
    }
}

/// Byte edits of a valid file: replace, insert or delete single bytes, or truncate.
#[derive(Debug, Clone)]
enum Edit {
    Replace(usize, u8),
    Insert(usize, u8),
    Delete(usize),
    Truncate(usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    // Bytes that matter to the formats are more likely than arbitrary ones.
    let byte = prop_oneof![
        3 => prop::sample::select(b"0123456789-+.eE \t\r\n@.GSTWmapversion".to_vec()),
        1 => any::<u8>(),
    ];
    prop_oneof![
        4 => (any::<usize>(), byte.clone()).prop_map(|(i, b)| Edit::Replace(i, b)),
        2 => (any::<usize>(), byte).prop_map(|(i, b)| Edit::Insert(i, b)),
        2 => any::<usize>().prop_map(Edit::Delete),
        1 => any::<usize>().prop_map(Edit::Truncate),
    ]
}

fn mutate(base: &[u8], edits: &[Edit]) -> Vec<u8> {
    let mut bytes = base.to_vec();
    for edit in edits {
        let len = bytes.len();
        match *edit {
            Edit::Replace(i, b) if len > 0 => bytes[i % len] = b,
            Edit::Insert(i, b) => bytes.insert(i % (len + 1), b),
            Edit::Delete(i) if len > 0 => {
                bytes.remove(i % len);
            }
            Edit::Truncate(i) => bytes.truncate(i % (len + 1)),
            _ => {}
        }
    }
    bytes
}

const SMALL_MAP: &str =
    "type octile\nheight 5\nwidth 6\nmap\n..@...\n.TT.G.\n@..S..\n..@@..\r\nW....O\n";
const SMALL_SCENARIO: &str = "version 1\n0\tmaps/dao/arena.map\t49\t49\t1\t11\t1\t12\t1\n\
    0 meshes/x.mesh 7 2 -0.0\t1.0 -3.0\t4.0 6\n1\ta b\t2\t2\t0.5\t0.5\t1.25\t1e3\t3.41421\n";

/// Whatever the map parser accepts, both mesh builders handle without panicking.
fn exercise_map(bytes: &[u8]) {
    if let Ok(map) = parse_movingai_map_bytes(bytes) {
        assert_eq!(
            map.walkable.len() as u64,
            u64::from(map.width) * u64::from(map.height)
        );
        if map.walkable.len() <= 4096 {
            if let Ok(mesh) = map.to_mesh(&MeshOptions::default()) {
                assert_eq!(doubled_area(&mesh), 2 * map.walkable_count() as i64);
            }
            let _ = map
                .to_cell_soup()
                .map(|s| s.into_mesh(&MeshOptions::default()));
        }
    }
}

proptest! {
    #![proptest_config(crate::common::proptest_config(300))]

    #[test]
    fn map_parser_never_panics_on_random_bytes(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        exercise_map(&bytes);
        let mut with_header = b"type octile\nheight 3\nwidth 4\nmap\n".to_vec();
        with_header.extend_from_slice(&bytes);
        exercise_map(&with_header);
    }

    #[test]
    fn map_parser_never_panics_on_edited_maps(edits in prop::collection::vec(edit(), 1..8)) {
        exercise_map(&mutate(SMALL_MAP.as_bytes(), &edits));
    }

    #[test]
    fn scenario_parser_never_panics(
        bytes in prop::collection::vec(any::<u8>(), 0..512),
        edits in prop::collection::vec(edit(), 1..8),
    ) {
        let _ = parse_scenario_bytes(&bytes);
        let _ = parse_scenario_bytes(&mutate(SMALL_SCENARIO.as_bytes(), &edits));
    }

    #[test]
    fn version_3_parser_never_panics(
        bytes in prop::collection::vec(any::<u8>(), 0..512),
        edits in prop::collection::vec(edit(), 1..8),
    ) {
        let mut with_header = b"mesh\n3\n".to_vec();
        with_header.extend_from_slice(&bytes);
        exercise(parse_polyanya_mesh_bytes, &with_header);
        exercise(parse_polyanya_mesh_bytes, &mutate(SMALL_V3.as_bytes(), &edits));
    }
}
