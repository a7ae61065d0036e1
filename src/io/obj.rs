//! Wavefront OBJ reader: vertex positions and faces, nothing else.
//!
//! Supported records:
//!
//! * `v x y z [w]`: a vertex position in world units. `w` and anything after it (some
//!   exporters append vertex colours) are ignored.
//! * `f c1 c2 c3 ...`: a polygon of 3 or more corners, each `v`, `v/vt`, `v/vt/vn` or
//!   `v//vn`. Indices are 1-based; a negative index counts back from the last vertex
//!   defined so far (`-1` is the latest). Texture and normal indices are checked to be
//!   integers and otherwise ignored.
//!
//! Faces are kept as polygons, not triangulated: the builder checks that each is convex
//! in the ground plane. Comments (`#` to the end of the line), blank lines, CRLF line
//! endings and every other record (`vn`, `vt`, `o`, `g`, `s`, `usemtl`, `mtllib`, `l`,
//! ...) are accepted and skipped. The up axis is not part of the format: it comes from
//! [`MeshOptions::up_axis`](crate::MeshOptions::up_axis) (Y by default, as most OBJ
//! exporters use).

use std::io::BufRead;

use glam::Vec3;

use super::lexer::Lexer;
use super::{LoadError, MAX_CORNERS, MAX_VERTICES, PolygonSoup, quoted, try_push};

/// Parses an OBJ file from `reader`, streaming line by line.
///
/// The returned soup has one polygon per `f` record and one vertex per `v` record, in
/// file order, with indices converted to 0-based; its `up_axis` is `None`.
///
/// # Errors
/// [`LoadError::Parse`] with the 1-based line number for: a malformed number, a vertex
/// with fewer than 3 coordinates, a face with fewer than 3 corners, vertex index 0, an
/// index that refers to a vertex not defined yet (OBJ only allows references backwards),
/// more vertices or corners than fit in `u32`. [`LoadError::Io`] if reading fails.
/// Non-finite coordinates (`nan`, `inf`) are passed through; the builder rejects them.
pub fn parse_obj(reader: impl BufRead) -> Result<PolygonSoup, LoadError> {
    let mut lex = Lexer::new(reader, Some(b'#'));
    let mut soup = PolygonSoup::default();
    loop {
        let record = lex.token_in_line()?.map(|t| Record::from_keyword(t.bytes));
        match record {
            Some(Record::Vertex) => read_vertex(&mut lex, &mut soup)?,
            Some(Record::Face) => read_face(&mut lex, &mut soup)?,
            Some(Record::Other) | None => {}
        }
        if !lex.next_line()? {
            return Ok(soup);
        }
    }
}

/// [`parse_obj`] on bytes in memory. Never panics, whatever the bytes.
///
/// # Errors
/// As [`parse_obj`] (never [`LoadError::Io`]).
pub fn parse_obj_bytes(bytes: &[u8]) -> Result<PolygonSoup, LoadError> {
    parse_obj(bytes)
}

/// The records this reader cares about.
enum Record {
    Vertex,
    Face,
    Other,
}

impl Record {
    fn from_keyword(keyword: &[u8]) -> Record {
        match keyword {
            b"v" => Record::Vertex,
            b"f" => Record::Face,
            _ => Record::Other,
        }
    }
}

/// Reads the coordinates of a `v` record (after the keyword).
fn read_vertex<R: BufRead>(lex: &mut Lexer<R>, soup: &mut PolygonSoup) -> Result<(), LoadError> {
    // A record never spans lines, so this is the line of all its tokens.
    let line = lex.line();
    let mut xyz = [0.0f32; 3];
    for (axis, value) in ["x", "y", "z"].into_iter().zip(&mut xyz) {
        let Some(token) = lex.token_in_line()? else {
            let message =
                format!("vertex needs 3 coordinates (x y z); the {axis} coordinate is missing");
            return Err(LoadError::parse(line, message));
        };
        *value = parse_coordinate(token.bytes).ok_or_else(|| {
            let message = format!(
                "bad {axis} coordinate {}: not a number",
                quoted(token.bytes)
            );
            LoadError::parse(token.line, message)
        })?;
    }
    if soup.vertices.len() >= MAX_VERTICES {
        let message = format!("too many vertices: at most {MAX_VERTICES} are supported");
        return Err(LoadError::parse(line, message));
    }
    try_push(&mut soup.vertices, Vec3::from_array(xyz), "OBJ vertices")
}

/// Reads the corners of an `f` record (after the keyword) into `soup`.
fn read_face<R: BufRead>(lex: &mut Lexer<R>, soup: &mut PolygonSoup) -> Result<(), LoadError> {
    let line = lex.line();
    let defined = soup.vertices.len();
    let mut size = 0u32;
    while let Some(token) = lex.token_in_line()? {
        let index = parse_corner(token.bytes, defined).map_err(|m| LoadError::parse(line, m))?;
        if soup.indices.len() >= MAX_CORNERS {
            let message = format!("too many face corners: at most {MAX_CORNERS} in total");
            return Err(LoadError::parse(line, message));
        }
        try_push(&mut soup.indices, index, "OBJ face corners")?;
        // Cannot overflow: the total corner count was checked above.
        size += 1;
    }
    if size < 3 {
        let message = format!("face has {size} corners; at least 3 are needed");
        return Err(LoadError::parse(line, message));
    }
    try_push(&mut soup.polygon_sizes, size, "OBJ faces")
}

/// A coordinate. `nan` and `inf` parse, so that the builder can name the vertex.
fn parse_coordinate(token: &[u8]) -> Option<f32> {
    std::str::from_utf8(token).ok()?.parse().ok()
}

/// One face corner, `v`, `v/vt`, `v/vt/vn` or `v//vn`, resolved to a 0-based vertex
/// index given `defined` vertices so far. The error is the message for the user.
fn parse_corner(token: &[u8], defined: usize) -> Result<u32, String> {
    let mut parts = token.split(|&b| b == b'/');
    let vertex = parts.next().unwrap_or_default();
    if vertex.is_empty() {
        return Err(format!("face corner {} has no vertex index", quoted(token)));
    }
    let index = parse_index(vertex)
        .map_err(|why| format!("bad vertex index {} in face corner: {why}", quoted(vertex)))?;
    for (what, part) in ["texture", "normal"].into_iter().zip(parts.by_ref()) {
        if !part.is_empty() {
            parse_index(part).map_err(|why| {
                format!("bad {what} index {} in face corner: {why}", quoted(part))
            })?;
        }
    }
    if parts.next().is_some() {
        return Err(format!(
            "face corner {} has more than 3 parts (expected v, v/vt, v/vt/vn or v//vn)",
            quoted(token)
        ));
    }
    resolve_index(index, defined)
}

/// A non-zero OBJ index (either sign), or the reason it is not one.
fn parse_index(text: &[u8]) -> Result<i64, &'static str> {
    let text = std::str::from_utf8(text).map_err(|_| "not an integer")?;
    match text.parse::<i64>() {
        Ok(0) => Err("indices start at 1, 0 is invalid"),
        Ok(index) => Ok(index),
        Err(e) => match e.kind() {
            std::num::IntErrorKind::PosOverflow | std::num::IntErrorKind::NegOverflow => {
                Err("out of range")
            }
            _ => Err("not an integer"),
        },
    }
}

/// Turns a 1-based (or negative, relative) index into a 0-based one, checking that it
/// names one of the `defined` vertices read so far.
fn resolve_index(index: i64, defined: usize) -> Result<u32, String> {
    // `defined` is at most MAX_VERTICES, so neither sum below can overflow.
    let defined = defined as i64;
    let resolved = if index > 0 {
        index - 1
    } else {
        defined + index
    };
    if (0..defined).contains(&resolved) {
        Ok(resolved as u32)
    } else {
        Err(format!(
            "vertex index {index} refers to a vertex that is not defined ({defined} vertices so far)"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corners_in_all_forms() {
        assert_eq!(parse_corner(b"2", 3), Ok(1));
        assert_eq!(parse_corner(b"3/1", 3), Ok(2));
        assert_eq!(parse_corner(b"1/2/3", 3), Ok(0));
        assert_eq!(parse_corner(b"1//3", 3), Ok(0));
        assert_eq!(parse_corner(b"-1", 3), Ok(2));
        assert_eq!(parse_corner(b"-3/-1/-1", 3), Ok(0));
        assert_eq!(parse_corner(b"1/", 3), Ok(0));
    }

    #[test]
    fn bad_corners() {
        for (token, needle) in [
            (&b"0"[..], "0 is invalid"),
            (b"4", "not defined (3 vertices so far)"),
            (b"-4", "not defined"),
            (b"/1", "no vertex index"),
            (b"1/2/3/4", "more than 3 parts"),
            (b"1/x", "bad texture index"),
            (b"1//0", "bad normal index"),
            (b"a", "not an integer"),
            (b"99999999999999999999", "out of range"),
            (b"\xff", "not an integer"),
        ] {
            let message = parse_corner(token, 3).unwrap_err();
            assert!(message.contains(needle), "{token:?}: {message}");
        }
    }

    #[test]
    fn extremes_do_not_overflow() {
        assert!(resolve_index(i64::MIN, MAX_VERTICES).is_err());
        assert!(resolve_index(i64::MAX, MAX_VERTICES).is_err());
        assert_eq!(resolve_index(-1, MAX_VERTICES), Ok(MAX_VERTICES as u32 - 1));
    }
}
