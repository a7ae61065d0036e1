//! Polyanya navigation meshes (`.mesh`), format versions 2 and 3.
//!
//! This is the format of the Polyanya any-angle pathfinding benchmarks. Tokens are
//! separated by any whitespace (spaces, tabs, newlines, CRLF); the line structures below
//! are customary but not required. The second word is the version, and the parser
//! dispatches on it.
//!
//! # Version 2
//!
//! ```text
//! mesh
//! 2
//! V P                        vertex and polygon counts
//! x y n p1 .. pn             V times: a vertex and the n polygons around it
//! n v1 .. vn q1 .. qn        P times: a polygon's corners and its neighbours
//! ```
//!
//! Vertex and polygon numbers are 0-based; `-1` in a polygon list means an obstacle or
//! the outside. Corners `v1 .. vn` run counter-clockwise, and `qi` is the polygon across
//! the edge from `v(i-1)` to `vi` (with `v0 = vn`).
//!
//! # Version 3 (Shortest Path Lab)
//!
//! ```text
//! mesh
//! 3
//! V F                        vertex and face counts
//! x y                        V times: a vertex
//! t n v1 .. vn k1 .. kn      F times: a face
//! ```
//!
//! Vertex and face ids are **1-based**. `t` is `1` for a traversable face and `0` for an
//! obstacle face (these cover the holes, so that the file is a complete subdivision of
//! its area). `v1 .. vn` are the corners, and `kj` describes the edge from `v(j-1)` to
//! `vj`: `+id` for an open edge to face `id`, `-id` for a blocked (constrained) edge
//! along face `id`, and `0` on the border of the mesh.
//!
//! Only the traversable faces become polygons, in file order;
//! [`PolygonSoup::source_polygons`] maps each back to its face (`id - 1`). Obstacle faces
//! are only checked for well-formedness, and vertices used only by them stay in the soup,
//! unused. Because navstar connects polygons that share an edge, a blocked edge between
//! two *traversable* faces cannot be represented: it is an error rather than a wall that
//! silently disappears. (In the published benchmark meshes blocked edges only ever
//! separate a traversable face from an obstacle face.) Error messages name vertices and
//! faces by their 1-based ids, as in the file.
//!
//! # Both versions
//!
//! navstar only takes the positions and the corner lists: it finds neighbours itself
//! from shared edges. The neighbour lists are still checked to be well formed (the
//! announced number of integers, each a valid entry), so that a damaged file is reported
//! rather than misread.
//!
//! The format is 2D. A point `(x, y)` becomes the vertex `(x, y, 0)` and the soup is
//! marked Z-up ([`PolygonSoup::up_axis`]), so the mesh is built in the x-y plane whatever
//! [`MeshOptions::up_axis`](crate::MeshOptions::up_axis) says, and the benchmark
//! scenarios' coordinates apply directly.

use std::fmt;
use std::io::BufRead;

use glam::Vec3;

use super::lexer::{Lexer, Token};
use super::{
    LoadError, MAX_CORNERS, MAX_VERTICES, PolygonSoup, quoted, reserve_announced, try_push,
};
use crate::UpAxis;

/// The word every Polyanya mesh file starts with.
const MAGIC: &[u8] = b"mesh";

/// Parses a Polyanya `.mesh` file from `reader`, streaming token by token.
///
/// The soup has the file's vertices as `(x, y, 0)` in file order, its polygons (for
/// version 3: its traversable faces, with [`PolygonSoup::source_polygons`]) in file
/// order, and `up_axis == Some(UpAxis::Z)`.
///
/// # Errors
/// [`LoadError::Parse`] with the 1-based line number for: a file that does not start
/// with `mesh`, a version other than 2 or 3, a malformed or out-of-range number, a
/// polygon with fewer than 3 corners, a corner that is not a vertex of the file, a
/// neighbour entry that is not a polygon of the file or "none" (`-1` in version 2; `0`
/// or `±id` in version 3), a version 3 traversable flag other than 0 or 1, a version 3
/// blocked edge between two traversable faces, a file that ends early, and anything
/// after the last polygon. [`LoadError::Io`] if reading fails. Non-finite
/// coordinates are passed through; the builder rejects them.
pub fn parse_polyanya_mesh(reader: impl BufRead) -> Result<PolygonSoup, LoadError> {
    let mut input = MeshReader {
        lex: Lexer::new(reader, None),
        item: Item::Header,
    };
    input.expect_magic()?;
    let (version, line) = input.integer("the format version")?;
    let soup = match version {
        2 => read_version_2(&mut input)?,
        3 => read_version_3(&mut input)?,
        // Other versions share the first two words and differ after them.
        _ => {
            let message = format!(
                "unsupported Polyanya mesh version {version}: only versions 2 and 3 can be read"
            );
            return Err(LoadError::parse(line, message));
        }
    };
    input.expect_end()?;
    Ok(soup)
}

/// [`parse_polyanya_mesh`] on bytes in memory. Never panics, whatever the bytes.
///
/// # Errors
/// As [`parse_polyanya_mesh`] (never [`LoadError::Io`]).
pub fn parse_polyanya_mesh_bytes(bytes: &[u8]) -> Result<PolygonSoup, LoadError> {
    parse_polyanya_mesh(bytes)
}

/// Reads the body of a version 2 file: counts, vertices, polygons.
fn read_version_2<R: BufRead>(input: &mut MeshReader<R>) -> Result<PolygonSoup, LoadError> {
    let vertex_count = input.count("the vertex count", MAX_VERTICES as u64)?;
    // u32::MAX is navstar's "no neighbour" marker, so it cannot be a polygon number.
    let polygon_count = input.count("the polygon count", u64::from(u32::MAX - 1))?;
    let mut soup = PolygonSoup {
        up_axis: Some(UpAxis::Z),
        ..PolygonSoup::default()
    };
    reserve_announced(&mut soup.vertices, vertex_count.into(), "mesh vertices")?;
    reserve_announced(
        &mut soup.polygon_sizes,
        polygon_count.into(),
        "mesh polygons",
    )?;
    reserve_announced(
        &mut soup.indices,
        3 * u64::from(polygon_count),
        "mesh polygon corners",
    )?;
    for vertex in 0..vertex_count {
        input.item = Item::Vertex(vertex);
        let position = read_vertex_v2(input, polygon_count)?;
        try_push(&mut soup.vertices, position, "mesh vertices")?;
    }
    for polygon in 0..polygon_count {
        input.item = Item::Polygon(polygon);
        read_polygon_v2(input, &mut soup, vertex_count, polygon_count)?;
    }
    Ok(soup)
}

/// `x y n p1 .. pn`: returns the position; checks the polygon list.
fn read_vertex_v2<R: BufRead>(
    input: &mut MeshReader<R>,
    polygon_count: u32,
) -> Result<Vec3, LoadError> {
    let x = input.coordinate("the x coordinate")?;
    let y = input.coordinate("the y coordinate")?;
    let around = input.count("the number of polygons around it", u64::MAX)?;
    for _ in 0..around {
        input.polygon_or_none("a polygon around it", polygon_count)?;
    }
    Ok(Vec3::new(x, y, 0.0))
}

/// `n v1 .. vn q1 .. qn`: appends the corners to `soup`; checks the neighbours.
fn read_polygon_v2<R: BufRead>(
    input: &mut MeshReader<R>,
    soup: &mut PolygonSoup,
    vertex_count: u32,
    polygon_count: u32,
) -> Result<(), LoadError> {
    let (size, line) = input.integer("its number of corners")?;
    if size < 3 {
        let message = format!("has {size} corners; at least 3 are needed");
        return Err(input.error(line, message));
    }
    if size > i64::from(u32::MAX) {
        let message = format!("has {size} corners, more than {} are supported", u32::MAX);
        return Err(input.error(line, message));
    }
    for _ in 0..size {
        let corner = input.vertex(vertex_count)?;
        if soup.indices.len() >= MAX_CORNERS {
            let message = format!("too many polygon corners: at most {MAX_CORNERS} in total");
            return Err(input.error(input.lex.line(), message));
        }
        try_push(&mut soup.indices, corner, "mesh polygon corners")?;
    }
    for _ in 0..size {
        input.polygon_or_none("a neighbour polygon", polygon_count)?;
    }
    try_push(&mut soup.polygon_sizes, size as u32, "mesh polygons")
}

/// Reads the body of a version 3 file: counts, vertices, faces (1-based ids).
fn read_version_3<R: BufRead>(input: &mut MeshReader<R>) -> Result<PolygonSoup, LoadError> {
    let vertex_count = input.count("the vertex count", MAX_VERTICES as u64)?;
    // Face ids must fit in u32 and leave room for u32::MAX as "no neighbour".
    let face_count = input.count("the face count", u64::from(u32::MAX - 1))?;
    let mut soup = PolygonSoup {
        up_axis: Some(UpAxis::Z),
        ..PolygonSoup::default()
    };
    reserve_announced(&mut soup.vertices, vertex_count.into(), "mesh vertices")?;
    // Typically about half of the faces are traversable; the rest is reserved as read.
    let expected = u64::from(face_count / 2);
    reserve_announced(&mut soup.polygon_sizes, expected, "mesh polygons")?;
    reserve_announced(&mut soup.source_polygons, expected, "mesh polygons")?;
    reserve_announced(&mut soup.indices, 3 * expected, "mesh polygon corners")?;
    let mut traversable: Vec<bool> = Vec::new();
    reserve_announced(&mut traversable, face_count.into(), "mesh faces")?;
    // Blocked edges of traversable faces, checked once every face's flag is known.
    let mut blocked: Vec<BlockedEdge> = Vec::new();
    for vertex in 1..=vertex_count {
        input.item = Item::Vertex(vertex);
        let x = input.coordinate("the x coordinate")?;
        let y = input.coordinate("the y coordinate")?;
        try_push(&mut soup.vertices, Vec3::new(x, y, 0.0), "mesh vertices")?;
    }
    for face in 1..=face_count {
        input.item = Item::Face(face);
        let walkable = read_face_v3(
            input,
            &mut soup,
            &mut blocked,
            face,
            (vertex_count, face_count),
        )?;
        try_push(&mut traversable, walkable, "mesh faces")?;
        if walkable {
            try_push(&mut soup.source_polygons, face - 1, "mesh polygons")?;
        }
    }
    for edge in blocked {
        // `other` is a face id (1 to face_count), range-checked when read.
        let other = (edge.other as usize).wrapping_sub(1);
        if traversable.get(other) == Some(&true) {
            let message = format!(
                "face {}: the edge to face {} is marked blocked, but both faces are traversable; \
                 navstar connects faces that share an edge, so this wall cannot be represented",
                edge.face, edge.other
            );
            return Err(LoadError::parse(edge.line, message));
        }
    }
    Ok(soup)
}

/// A negative neighbour entry of a traversable face.
struct BlockedEdge {
    line: u64,
    face: u32,
    other: u32,
}

/// `t n v1 .. vn k1 .. kn`: appends a traversable face to `soup`, checks an obstacle
/// face; returns whether the face is traversable.
fn read_face_v3<R: BufRead>(
    input: &mut MeshReader<R>,
    soup: &mut PolygonSoup,
    blocked: &mut Vec<BlockedEdge>,
    face: u32,
    (vertex_count, face_count): (u32, u32),
) -> Result<bool, LoadError> {
    let (flag, line) = input.integer("its traversable flag (0 or 1)")?;
    let walkable = match flag {
        0 => false,
        1 => true,
        _ => {
            let message = format!("the traversable flag is {flag}; it must be 0 or 1");
            return Err(input.error(line, message));
        }
    };
    let (size, line) = input.integer("its number of corners")?;
    if size < 3 {
        let message = format!("has {size} corners; at least 3 are needed");
        return Err(input.error(line, message));
    }
    if size > i64::from(u32::MAX) {
        let message = format!("has {size} corners, more than {} are supported", u32::MAX);
        return Err(input.error(line, message));
    }
    for _ in 0..size {
        let (value, line) = input.integer("a corner's vertex id")?;
        let corner = match u32::try_from(value) {
            Ok(id) if (1..=vertex_count).contains(&id) => id - 1,
            _ => {
                let message = format!(
                    "corner vertex {value} does not exist (vertex ids run from 1 to {vertex_count})"
                );
                return Err(input.error(line, message));
            }
        };
        if !walkable {
            continue;
        }
        if soup.indices.len() >= MAX_CORNERS {
            let message = format!("too many polygon corners: at most {MAX_CORNERS} in total");
            return Err(input.error(line, message));
        }
        try_push(&mut soup.indices, corner, "mesh polygon corners")?;
    }
    for _ in 0..size {
        let (value, line) = input.integer("a neighbour entry")?;
        let other = match u32::try_from(value.unsigned_abs()) {
            Ok(id) if id <= face_count => id,
            _ => {
                let message = format!(
                    "neighbour entry {value} is not a face: face ids run from 1 to {face_count} \
                     (+id open, -id blocked, 0 none)"
                );
                return Err(input.error(line, message));
            }
        };
        if walkable && value < 0 {
            try_push(
                blocked,
                BlockedEdge { line, face, other },
                "mesh blocked edges",
            )?;
        }
    }
    if walkable {
        try_push(&mut soup.polygon_sizes, size as u32, "mesh polygons")?;
    }
    Ok(walkable)
}

/// What is being read, for error messages.
#[derive(Debug, Clone, Copy)]
enum Item {
    Header,
    /// A vertex, by its number in the file (0-based in version 2, 1-based in version 3).
    Vertex(u32),
    /// A version 2 polygon, 0-based.
    Polygon(u32),
    /// A version 3 face, by its 1-based id.
    Face(u32),
}

impl fmt::Display for Item {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Item::Header => f.write_str("header"),
            Item::Vertex(v) => write!(f, "vertex {v}"),
            Item::Polygon(p) => write!(f, "polygon {p}"),
            Item::Face(p) => write!(f, "face {p}"),
        }
    }
}

/// Typed tokens for the mesh formats. Every error names the item being read.
struct MeshReader<R> {
    lex: Lexer<R>,
    item: Item,
}

impl<R: BufRead> MeshReader<R> {
    /// A parse error at `line` about the current item.
    fn error(&self, line: u64, message: impl fmt::Display) -> LoadError {
        LoadError::parse(line, format!("{}: {message}", self.item))
    }

    /// The next token; at the end of the file, an error saying what was `expected`.
    fn next(&mut self, expected: &str) -> Result<Token<'_>, LoadError> {
        let item = self.item;
        self.lex.expect_token(|line| {
            let message = format!("{item}: the file ends where {expected} was expected");
            LoadError::parse(line, message)
        })
    }

    fn expect_magic(&mut self) -> Result<(), LoadError> {
        let token = self.next("the word 'mesh'")?;
        if token.bytes == MAGIC {
            return Ok(());
        }
        let message = format!(
            "not a Polyanya mesh: expected the word 'mesh', found {}",
            quoted(token.bytes)
        );
        Err(LoadError::parse(token.line, message))
    }

    /// An integer, with the line it is on.
    fn integer(&mut self, expected: &str) -> Result<(i64, u64), LoadError> {
        let item = self.item;
        let token = self.next(expected)?;
        let value = std::str::from_utf8(token.bytes)
            .ok()
            .and_then(|text| text.parse().ok());
        match value {
            Some(value) => Ok((value, token.line)),
            None => {
                let message = format!(
                    "{item}: expected {expected} (an integer), found {}",
                    quoted(token.bytes)
                );
                Err(LoadError::parse(token.line, message))
            }
        }
    }

    /// A coordinate. `nan` and `inf` parse, so that the builder can name the vertex.
    fn coordinate(&mut self, expected: &str) -> Result<f32, LoadError> {
        let item = self.item;
        let token = self.next(expected)?;
        let value = std::str::from_utf8(token.bytes)
            .ok()
            .and_then(|text| text.parse().ok());
        value.ok_or_else(|| {
            let message = format!(
                "{item}: expected {expected} (a number), found {}",
                quoted(token.bytes)
            );
            LoadError::parse(token.line, message)
        })
    }

    /// A count between 0 and `max`.
    fn count(&mut self, expected: &str, max: u64) -> Result<u32, LoadError> {
        let (value, line) = self.integer(expected)?;
        let max = max.min(u32::MAX.into());
        match u64::try_from(value) {
            Ok(count) if count <= max => Ok(count as u32),
            _ => Err(self.error(
                line,
                format!("{expected} {value} is not between 0 and {max}"),
            )),
        }
    }

    /// A corner: the number of one of the file's `vertex_count` vertices.
    fn vertex(&mut self, vertex_count: u32) -> Result<u32, LoadError> {
        let (value, line) = self.integer("a corner's vertex number")?;
        match u32::try_from(value) {
            Ok(vertex) if vertex < vertex_count => Ok(vertex),
            _ => {
                let message = format!(
                    "corner vertex {value} does not exist (the file has {vertex_count} vertices)"
                );
                Err(self.error(line, message))
            }
        }
    }

    /// A polygon-list entry: `-1` (none) or one of the file's `polygon_count` polygons.
    fn polygon_or_none(&mut self, expected: &str, polygon_count: u32) -> Result<(), LoadError> {
        let (value, line) = self.integer(expected)?;
        if value == -1 || (0..i64::from(polygon_count)).contains(&value) {
            return Ok(());
        }
        let message = format!(
            "{expected} is {value}, which is neither -1 nor a polygon (the file has {polygon_count} polygons)"
        );
        Err(self.error(line, message))
    }

    /// Checks that nothing but whitespace follows the last polygon.
    fn expect_end(&mut self) -> Result<(), LoadError> {
        match self.lex.token()? {
            None => Ok(()),
            Some(token) => {
                let message = format!(
                    "unexpected {} after the last polygon (is the polygon count in the header right?)",
                    quoted(token.bytes)
                );
                Err(LoadError::parse(token.line, message))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SQUARE: &str =
        "mesh\n2\n4 1\n0 0 1 0\n1 0 1 0\n1 1 1 0\n0 1 1 0\n4 0 1 2 3 -1 -1 -1 -1\n";

    fn parse_error(text: &str) -> (u64, String) {
        match parse_polyanya_mesh_bytes(text.as_bytes()) {
            Err(LoadError::Parse { line, message }) => (line, message),
            other => panic!("expected a parse error, got {other:?}"),
        }
    }

    #[test]
    fn reads_a_square() {
        let soup = parse_polyanya_mesh_bytes(SQUARE.as_bytes()).unwrap();
        assert_eq!(soup.vertices.len(), 4);
        assert_eq!(soup.vertices[2], Vec3::new(1.0, 1.0, 0.0));
        assert_eq!(soup.indices, [0, 1, 2, 3]);
        assert_eq!(soup.polygon_sizes, [4]);
        assert_eq!(soup.up_axis, Some(UpAxis::Z));
    }

    #[test]
    fn layout_is_free() {
        let flat = SQUARE.replace('\n', " \t ");
        assert_eq!(
            parse_polyanya_mesh_bytes(flat.as_bytes()).unwrap(),
            parse_polyanya_mesh_bytes(SQUARE.as_bytes()).unwrap()
        );
    }

    /// The example of the version 3 specification: a square of four triangles around its
    /// centre, one of them an obstacle.
    const V3: &str = "mesh\n3\n5 4\n0 0\n0 10\n10 10\n10 0\n5 5\n\
        0 3   4 1 5   -4 0 -2\n\
        1 3   1 2 5   -1 0 3\n\
        1 3   2 3 5   2 0 4\n\
        1 3   3 4 5   3 0 -1\n";

    #[test]
    fn version_3_keeps_the_traversable_faces() {
        let soup = parse_polyanya_mesh_bytes(V3.as_bytes()).unwrap();
        assert_eq!(soup.vertices.len(), 5);
        assert_eq!(soup.vertices[4], Vec3::new(5.0, 5.0, 0.0));
        assert_eq!(soup.indices, [0, 1, 4, 1, 2, 4, 2, 3, 4]);
        assert_eq!(soup.polygon_sizes, [3, 3, 3]);
        assert_eq!(soup.source_polygons, [1, 2, 3]);
        assert_eq!(soup.source_polygon(0), Some(1));
        assert_eq!(soup.source_polygon(3), None);
        assert_eq!(soup.up_axis, Some(UpAxis::Z));
        let mesh = soup.into_mesh(&crate::MeshOptions::default()).unwrap();
        assert_eq!((mesh.polygon_count(), mesh.island_count()), (3, 1));
    }

    #[test]
    fn version_3_errors() {
        let cases = [
            (
                V3.replace("1 3   2 3 5", "2 3   2 3 5"),
                11,
                "face 3: the traversable flag is 2",
            ),
            (
                V3.replace("1 3   2 3 5", "1 3   2 3 0"),
                11,
                "face 3: corner vertex 0 does not exist",
            ),
            (
                V3.replace("1 3   2 3 5", "1 3   2 3 6"),
                11,
                "vertex 6 does not exist",
            ),
            (
                V3.replace("2 0 4", "2 0 5"),
                11,
                "neighbour entry 5 is not a face",
            ),
            (
                V3.replace("2 0 4", "2 0 -4"),
                11,
                "face 3: the edge to face 4 is marked blocked",
            ),
            (
                V3.replace("1 3   1 2 5", "1 2   1 2"),
                10,
                "face 2: has 2 corners",
            ),
            (
                V3.replace("10 0\n", "10 x\n"),
                7,
                "vertex 4: expected the y coordinate",
            ),
            (V3.replace("5 4\n", "5 5\n"), 12, "face 5: the file ends"),
        ];
        for (text, line, needle) in cases {
            let (got, message) = parse_error(&text);
            assert_eq!(got, line, "{message}");
            assert!(message.contains(needle), "{message}");
        }
    }

    #[test]
    fn errors_name_the_line_and_item() {
        let (line, message) = parse_error(&SQUARE.replace("1 1 1 0", "1 1 1 7"));
        assert_eq!(line, 6);
        assert!(message.starts_with("vertex 2: "), "{message}");
        let (line, message) = parse_error(&SQUARE.replace("4 0 1 2 3", "4 0 1 2 4"));
        assert_eq!(line, 8);
        assert!(
            message.contains("corner vertex 4 does not exist"),
            "{message}"
        );
        let (line, message) = parse_error(&SQUARE.replace("4 0 1 2 3", "2 0 1 2 3"));
        assert_eq!(line, 8);
        assert!(message.contains("at least 3"), "{message}");
        let (line, message) = parse_error(&SQUARE.replace("4 1\n", "-4 1\n"));
        assert_eq!(line, 3);
        assert!(message.contains("vertex count -4"), "{message}");
        let (line, message) = parse_error(&format!("{SQUARE}5\n"));
        assert_eq!(line, 9);
        assert!(message.contains("after the last polygon"), "{message}");
    }
}
