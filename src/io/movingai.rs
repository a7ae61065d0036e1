//! Moving AI grid maps (`.map`), the format of the grid pathfinding benchmarks at
//! movingai.com.
//!
//! ```text
//! type octile
//! height H
//! width W
//! map
//! H rows of W characters, one row per line
//! ```
//!
//! Cell `(x, y)` is character `x` (0-based) of row `y`, and row 0 is the first row after
//! `map`. The header words are separated by spaces or tabs; `height` and `width` may come
//! in either order. Lines may end in `\n` or `\r\n`. Blank lines after the last row are
//! ignored.
//!
//! # Passable cells
//!
//! `.` and `G` (ground) and `S` (swamp) are passable. Every other printable ASCII
//! character (space included) is blocked: `@` and `O` (out of bounds), `T` (trees) and
//! `W` (water) as in the Moving AI convention for walking agents, and any character the
//! convention does not define. Control characters (tabs included) and bytes outside
//! ASCII are errors: they mean the file is not a map, or is damaged.
//!
//! # Mesh
//!
//! [`GridMap::to_mesh`] builds the mesh with [`NavMesh::from_grid`]: passable cells are
//! merged into rectangles, cells that touch only at a corner are not connected. The format
//! is 2D, so the mesh is always built Z-up with a cell size of 1 and the origin at 0:
//! cell `(x, y)` covers `[x, x+1] x [y, y+1]` in the plane z = 0, the same coordinates as
//! the benchmark scenarios (see [`super::scenario`]). The up axis of the caller's
//! [`MeshOptions`] is ignored; the other options apply.

use std::io::BufRead;

use glam::Vec3;

use super::lexer::LineReader;
use super::{LoadError, PolygonSoup, quoted, reserve_announced};
use crate::UpAxis;
use crate::error::MeshError;
use crate::mesh::{MeshOptions, NavMesh, TileGrid};

/// Largest number of cells (`width * height`) a map may have: 2^28, a 16384 x 16384 map.
/// The largest Moving AI benchmark maps have about 2^21.
pub const MAX_CELLS: u64 = 1 << 28;

/// Largest width or height of a map: 2^24, so that every cell corner is exact in `f32`.
pub const MAX_SIDE: u32 = 1 << 24;

/// A grid map as read from a file: which cells are passable.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GridMap {
    /// Cells per row.
    pub width: u32,
    /// Number of rows.
    pub height: u32,
    /// `walkable[y * width + x]` is `true` when cell `(x, y)` is passable; row `y` is
    /// line `y` of the map section (row 0 comes first in the file).
    pub walkable: Vec<bool>,
}

impl GridMap {
    /// Whether cell `(x, y)` is passable; `false` outside the map.
    pub fn is_walkable(&self, x: u32, y: u32) -> bool {
        if x >= self.width || y >= self.height {
            return false;
        }
        let index = y as usize * self.width as usize + x as usize;
        self.walkable.get(index).copied().unwrap_or(false)
    }

    /// The number of passable cells.
    pub fn walkable_count(&self) -> usize {
        self.walkable.iter().filter(|&&w| w).count()
    }

    /// Builds the navigation mesh of the passable cells with [`NavMesh::from_grid`]:
    /// Z-up, cell size 1, origin 0 (see the [module documentation](self)). `options`
    /// apply except for the up axis.
    ///
    /// # Errors
    /// [`LoadError::Mesh`]: [`MeshError::NoPolygons`] when no cell is passable,
    /// [`MeshError::InvalidOption`] when the fields disagree (`walkable` does not hold
    /// `width * height` cells) or the map is larger than [`MAX_SIDE`] or [`MAX_CELLS`],
    /// or any builder error.
    pub fn to_mesh(&self, options: &MeshOptions) -> Result<NavMesh, LoadError> {
        self.check_size()?;
        let grid = TileGrid {
            width: self.width,
            height: self.height,
            walkable: &self.walkable,
            cell_size: 1.0,
            origin: Vec3::ZERO,
        };
        let mut options = options.clone();
        options.up_axis = UpAxis::Z;
        Ok(NavMesh::from_grid(&grid, &options)?)
    }

    /// One unit square per passable cell, Z-up, with corners shared between cells: the
    /// polygon soup [`MeshFormat::parse`](super::MeshFormat::parse) gives for a map.
    ///
    /// Building it gives the same walkable area and connectivity as
    /// [`GridMap::to_mesh`], but with one polygon per cell instead of merged rectangles,
    /// so prefer [`GridMap::to_mesh`] to build a mesh. Polygons are in row-major cell
    /// order, each counter-clockwise from its `(x, y)` corner.
    ///
    /// # Errors
    /// As [`GridMap::to_mesh`] for inconsistent fields, and
    /// [`MeshError::OutOfMemory`] if the soup does not fit in memory.
    pub fn to_cell_soup(&self) -> Result<PolygonSoup, LoadError> {
        self.check_size()?;
        let (w, h) = (self.width as usize, self.height as usize);
        let cells = self.walkable_count();
        let mut soup = PolygonSoup {
            up_axis: Some(UpAxis::Z),
            ..PolygonSoup::default()
        };
        let oom = |_| MeshError::OutOfMemory("grid cell polygons");
        soup.indices.try_reserve_exact(4 * cells).map_err(oom)?;
        soup.polygon_sizes.try_reserve_exact(cells).map_err(oom)?;
        // The vertex numbers of the corners on the lines y and y + 1 of the current row.
        const NONE: u32 = u32::MAX;
        let mut below = Vec::new();
        let mut above = Vec::new();
        for line in [&mut below, &mut above] {
            line.try_reserve_exact(w + 1).map_err(oom)?;
            line.resize(w + 1, NONE);
        }
        let corner = |vertices: &mut Vec<Vec3>, slot: &mut u32, x: usize, y: usize| {
            if *slot == NONE {
                // At most 4 * MAX_CELLS corners: always below u32::MAX.
                *slot = vertices.len() as u32;
                vertices
                    .try_reserve(1)
                    .map_err(|_| MeshError::OutOfMemory("grid cell corners"))?;
                vertices.push(Vec3::new(x as f32, y as f32, 0.0));
            }
            Ok::<u32, LoadError>(*slot)
        };
        for (y, row) in self.walkable.chunks_exact(w.max(1)).take(h).enumerate() {
            for (x, _) in row.iter().enumerate().filter(|&(_, &free)| free) {
                let a = corner(&mut soup.vertices, &mut below[x], x, y)?;
                let b = corner(&mut soup.vertices, &mut below[x + 1], x + 1, y)?;
                let c = corner(&mut soup.vertices, &mut above[x + 1], x + 1, y + 1)?;
                let d = corner(&mut soup.vertices, &mut above[x], x, y + 1)?;
                soup.indices.extend_from_slice(&[a, b, c, d]);
                soup.polygon_sizes.push(4);
            }
            std::mem::swap(&mut below, &mut above);
            above.fill(NONE);
        }
        Ok(soup)
    }

    /// Checks that the fields agree and the map is within the size limits.
    fn check_size(&self) -> Result<(), MeshError> {
        if self.width > MAX_SIDE || self.height > MAX_SIDE {
            return Err(MeshError::InvalidOption(
                "a grid map side is longer than MAX_SIDE",
            ));
        }
        let cells = u64::from(self.width) * u64::from(self.height);
        if cells > MAX_CELLS {
            return Err(MeshError::InvalidOption(
                "a grid map has more than MAX_CELLS cells",
            ));
        }
        if self.walkable.len() as u64 != cells {
            return Err(MeshError::InvalidOption(
                "walkable must hold width * height cells",
            ));
        }
        Ok(())
    }
}

/// Whether a map character is a passable cell: `.`, `G` or `S`.
pub fn is_passable(cell: u8) -> bool {
    matches!(cell, b'.' | b'G' | b'S')
}

/// Longest header line accepted, in bytes.
const MAX_HEADER_LINE: usize = 256;

/// Parses a Moving AI `.map` file from `reader`, streaming line by line (only the current
/// line and the cells read so far are in memory).
///
/// # Errors
/// [`LoadError::Parse`] with the 1-based line number for: a header that is not `type
/// octile`, `height H`, `width W` (in either order), `map`; a width or height that is 0,
/// larger than [`MAX_SIDE`], or whose product is larger than [`MAX_CELLS`]; a row whose
/// length is not the width; a control character or non-ASCII byte in a row; a file that
/// ends before the last row; any non-blank line after it. [`LoadError::Io`] if reading
/// fails; [`LoadError::Mesh`] with [`MeshError::OutOfMemory`] if the cells do not fit in
/// memory.
pub fn parse_movingai_map(reader: impl BufRead) -> Result<GridMap, LoadError> {
    let mut lines = LineReader::new(reader);
    let (width, height) = read_header(&mut lines)?;
    let mut map = GridMap {
        width,
        height,
        walkable: Vec::new(),
    };
    reserve_announced(
        &mut map.walkable,
        u64::from(width) * u64::from(height),
        "grid map cells",
    )?;
    for y in 0..height {
        let too_long =
            |line| LoadError::parse(line, format!("row {y} has more than {width} cells"));
        let Some((line, row)) = lines.next_line(width as usize, too_long)? else {
            let message =
                format!("the map ends after {y} of its {height} rows (row {y} is missing)");
            return Err(LoadError::parse(lines.line(), message));
        };
        if row.len() != width as usize {
            let message = format!("row {y} has {} cells, expected {width}", row.len());
            return Err(LoadError::parse(line, message));
        }
        if let Some(x) = row.iter().position(|&c| !(b' '..=b'~').contains(&c)) {
            let message = format!(
                "row {y}, column {x}: byte 0x{:02x} is not a map cell (cells are printable ASCII characters)",
                row[x]
            );
            return Err(LoadError::parse(line, message));
        }
        map.walkable
            .try_reserve(row.len())
            .map_err(|_| MeshError::OutOfMemory("grid map cells"))?;
        map.walkable.extend(row.iter().map(|&c| is_passable(c)));
    }
    loop {
        let too_long = |line| {
            LoadError::parse(
                line,
                format!("unexpected text after the last row (the map has {height} rows)"),
            )
        };
        // Blank lines (spaces, tabs) are fine, anything else is not.
        match lines.next_line(MAX_HEADER_LINE, too_long)? {
            None => return Ok(map),
            Some((_, text)) if text.iter().all(u8::is_ascii_whitespace) => {}
            Some((line, _)) => return Err(too_long(line)),
        }
    }
}

/// [`parse_movingai_map`] on bytes in memory. Never panics, whatever the bytes.
///
/// # Errors
/// As [`parse_movingai_map`] (never [`LoadError::Io`]).
pub fn parse_movingai_map_bytes(bytes: &[u8]) -> Result<GridMap, LoadError> {
    parse_movingai_map(bytes)
}

/// Reads the four header lines; returns `(width, height)`.
fn read_header<R: BufRead>(lines: &mut LineReader<R>) -> Result<(u32, u32), LoadError> {
    let mut next = |expected: &str| -> Result<(Vec<Vec<u8>>, u64), LoadError> {
        let too_long =
            |line| LoadError::parse(line, format!("expected {expected}, found a long line"));
        match lines.next_line(MAX_HEADER_LINE, too_long)? {
            Some((line, text)) => {
                let words = text
                    .split(|b| b.is_ascii_whitespace())
                    .filter(|w| !w.is_empty())
                    .map(<[u8]>::to_vec)
                    .collect();
                Ok((words, line))
            }
            None => {
                let message = format!("the file ends where {expected} was expected");
                Err(LoadError::parse(lines.line().max(1), message))
            }
        }
    };
    let found = |words: &[Vec<u8>]| quoted(&words.join(&b' '));

    let (words, line) = next("the line 'type octile'")?;
    match words.as_slice() {
        [key, kind] if key == b"type" && kind == b"octile" => {}
        [key, kind] if key == b"type" => {
            let message = format!(
                "unsupported map type {}: only 'octile' maps can be read",
                quoted(kind)
            );
            return Err(LoadError::parse(line, message));
        }
        _ => {
            let message = format!(
                "not a Moving AI map: expected 'type octile', found {}",
                found(&words)
            );
            return Err(LoadError::parse(line, message));
        }
    }

    let mut width = None;
    let mut height = None;
    for _ in 0..2 {
        let (words, line) = next("'height H' or 'width W'")?;
        let (slot, key) = match words.first().map(Vec::as_slice) {
            Some(b"height") if height.is_none() => (&mut height, "height"),
            Some(b"width") if width.is_none() => (&mut width, "width"),
            _ => {
                let missing = match (height, width) {
                    (None, None) => "'height H' or 'width W'",
                    (None, Some(_)) => "'height H'",
                    _ => "'width W'",
                };
                let message = format!("expected {missing}, found {}", found(&words));
                return Err(LoadError::parse(line, message));
            }
        };
        let value = match words.as_slice() {
            [_, value] => std::str::from_utf8(value)
                .ok()
                .and_then(|text| text.parse::<u32>().ok()),
            _ => None,
        };
        match value {
            Some(value) if (1..=MAX_SIDE).contains(&value) => *slot = Some(value),
            _ => {
                let message = format!(
                    "expected '{key} N' with N between 1 and {MAX_SIDE}, found {}",
                    found(&words)
                );
                return Err(LoadError::parse(line, message));
            }
        }
    }

    let (words, line) = next("the line 'map'")?;
    if words.len() != 1 || words[0] != b"map" {
        let message = format!("expected the line 'map', found {}", found(&words));
        return Err(LoadError::parse(line, message));
    }
    let (Some(width), Some(height)) = (width, height) else {
        // Not reachable: each of the two size lines fills a different size or fails.
        return Err(LoadError::parse(line, "expected 'height H' and 'width W'"));
    };
    let cells = u64::from(width) * u64::from(height);
    if cells > MAX_CELLS {
        let message = format!(
            "the map is too large: {width} x {height} = {cells} cells, at most {MAX_CELLS} are supported"
        );
        return Err(LoadError::parse(line, message));
    }
    Ok((width, height))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = "type octile\nheight 3\nwidth 4\nmap\n..@.\nGT.S\n@@.O\n";

    fn parse_error(text: &str) -> (u64, String) {
        match parse_movingai_map_bytes(text.as_bytes()) {
            Err(LoadError::Parse { line, message }) => (line, message),
            other => panic!("expected a parse error, got {other:?}"),
        }
    }

    #[test]
    fn reads_cells_row_by_row() {
        let map = parse_movingai_map_bytes(SMALL.as_bytes()).unwrap();
        assert_eq!((map.width, map.height), (4, 3));
        let cells: String = map
            .walkable
            .iter()
            .map(|&w| if w { '1' } else { '0' })
            .collect();
        assert_eq!(cells, "110110110010");
        assert!(map.is_walkable(3, 1) && !map.is_walkable(1, 1) && !map.is_walkable(4, 0));
        assert_eq!(map.walkable_count(), 7);
        let crlf = SMALL.replace('\n', "\r\n") + "\r\n  \n";
        assert_eq!(parse_movingai_map_bytes(crlf.as_bytes()).unwrap(), map);
        let swapped = SMALL.replace("height 3\nwidth 4", "width 4\t\nheight\t3");
        assert_eq!(parse_movingai_map_bytes(swapped.as_bytes()).unwrap(), map);
    }

    #[test]
    fn header_errors() {
        let cases = [
            (SMALL.replace("octile", "tile"), 1, "unsupported map type"),
            (
                SMALL.replace("type octile", "mesh"),
                1,
                "not a Moving AI map",
            ),
            (SMALL.replace("height 3", "height three"), 2, "'height N'"),
            (SMALL.replace("height 3", "height 0"), 2, "between 1 and"),
            (
                SMALL.replace("width 4", "height 4"),
                3,
                "expected 'width W'",
            ),
            (
                SMALL.replace("map\n", "map x\n"),
                4,
                "expected the line 'map'",
            ),
            ("type octile\nheight 3\n".to_string(), 2, "the file ends"),
            (String::new(), 1, "the file ends"),
            (
                "type octile\nheight 16777216\nwidth 16777216\nmap\n".into(),
                4,
                "too large",
            ),
        ];
        for (text, line, needle) in cases {
            let (got, message) = parse_error(&text);
            assert_eq!(got, line, "{message}");
            assert!(message.contains(needle), "{message}");
        }
    }

    #[test]
    fn row_errors() {
        let cases = [
            (
                SMALL.replace("GT.S", "GT.SS"),
                6,
                "row 1 has more than 4 cells",
            ),
            (
                SMALL.replace("GT.S", "GT."),
                6,
                "row 1 has 3 cells, expected 4",
            ),
            (
                SMALL.replace("GT.S", "G\t.S"),
                6,
                "row 1, column 1: byte 0x09",
            ),
            (SMALL.replace("GT.S", "G\u{e9}S"), 6, "byte 0xc3"),
            (SMALL.replace("@@.O\n", ""), 6, "ends after 2 of its 3 rows"),
            (format!("{SMALL}\n....\n"), 9, "after the last row"),
        ];
        for (text, line, needle) in cases {
            let (got, message) = parse_error(&text);
            assert_eq!(got, line, "{message}");
            assert!(message.contains(needle), "{message}");
        }
    }

    #[test]
    fn mesh_and_cell_soup_cover_the_same_cells() {
        let map = parse_movingai_map_bytes(SMALL.as_bytes()).unwrap();
        let mesh = map.to_mesh(&MeshOptions::default()).unwrap();
        assert_eq!(mesh.up_axis(), UpAxis::Z);
        let soup = map.to_cell_soup().unwrap();
        assert_eq!(soup.polygon_sizes.len(), 7);
        assert_eq!(soup.vertices.len(), 17);
        let cells = soup.into_mesh(&MeshOptions::default()).unwrap();
        assert_eq!(cells.island_count(), mesh.island_count());
    }

    #[test]
    fn inconsistent_fields_are_errors() {
        let map = GridMap {
            width: u32::MAX,
            height: 0,
            walkable: Vec::new(),
        };
        assert!(matches!(
            map.to_mesh(&MeshOptions::default()),
            Err(LoadError::Mesh(MeshError::InvalidOption(_)))
        ));
        let map = GridMap {
            width: 2,
            height: 2,
            walkable: vec![true; 3],
        };
        assert!(map.to_cell_soup().is_err());
        assert!(map.to_mesh(&MeshOptions::default()).is_err());
    }
}
