//! Moving AI scenario files (`.scen`): lists of benchmark problems (start, goal and the
//! length of a shortest path) for a grid map or a Polyanya mesh.
//!
//! ```text
//! version 1
//! bucket map width height start_x start_y goal_x goal_y optimal_length
//! ...
//! ```
//!
//! The first line is `version` and a version number (any; `1` and `1.0` occur). Every
//! other line is one problem of 9 fields separated by spaces and/or tabs (some files mix
//! them). The bucket is a non-negative integer (problems of similar length share one),
//! width and height are the map's size, and the last five fields are numbers, possibly
//! real-valued. The map name may in principle contain spaces, so the first field is the
//! bucket, the last seven are the numbers, and the map name is everything between them.
//! Empty lines (and lines of only blanks) are skipped anywhere; lines may end in `\r\n`.
//!
//! # Coordinates
//!
//! On a grid map, a problem's `(x, y)` names the cell in column `x` of row `y` (see
//! [`super::movingai`]), whose centre is [`ScenarioProblem::grid_start`]. On a Polyanya
//! mesh the coordinates are the point itself, [`ScenarioProblem::mesh_start`]. Both give
//! points in the z = 0 plane of the Z-up meshes the loaders build. The optimal length is
//! the octile grid distance for grid maps and the Euclidean shortest-path length for
//! meshes; some hand-made files write `-1` there.

use std::io::BufRead;

use glam::{DVec2, Vec3};

use super::lexer::LineReader;
use super::{LoadError, quoted, try_push};

/// One benchmark problem of a scenario file.
#[derive(Debug, Clone, PartialEq)]
pub struct ScenarioProblem {
    /// The bucket: problems of similar optimal length share one.
    pub bucket: u32,
    /// The map name as written in the file (often a path such as `maps/dao/arena.map`).
    pub map: String,
    /// The width of the map, in cells.
    pub map_width: u32,
    /// The height of the map, in cells.
    pub map_height: u32,
    /// The start, in map coordinates.
    pub start: DVec2,
    /// The goal, in map coordinates.
    pub goal: DVec2,
    /// The length of a shortest path from start to goal, as written in the file.
    pub optimal_length: f64,
}

impl ScenarioProblem {
    /// The start on a grid map: the centre of its cell, `(x + 0.5, y + 0.5, 0)`.
    pub fn grid_start(&self) -> Vec3 {
        cell_centre(self.start)
    }

    /// The goal on a grid map: the centre of its cell, `(x + 0.5, y + 0.5, 0)`.
    pub fn grid_goal(&self) -> Vec3 {
        cell_centre(self.goal)
    }

    /// The start on a Polyanya mesh: the point itself, `(x, y, 0)`.
    pub fn mesh_start(&self) -> Vec3 {
        point(self.start)
    }

    /// The goal on a Polyanya mesh: the point itself, `(x, y, 0)`.
    pub fn mesh_goal(&self) -> Vec3 {
        point(self.goal)
    }

    /// The base name of [`ScenarioProblem::map`]: the part after the last `/` or `\`.
    pub fn map_file_name(&self) -> &str {
        self.map.rsplit(['/', '\\']).next().unwrap_or(&self.map)
    }
}

fn cell_centre(p: DVec2) -> Vec3 {
    Vec3::new((p.x + 0.5) as f32, (p.y + 0.5) as f32, 0.0)
}

fn point(p: DVec2) -> Vec3 {
    Vec3::new(p.x as f32, p.y as f32, 0.0)
}

/// Longest line accepted, in bytes: far more than any real problem line needs.
const MAX_LINE_LEN: usize = 64 * 1024;

/// The numeric fields at the end of a problem line.
const NUMBERS: [&str; 7] = [
    "the map width",
    "the map height",
    "the start x",
    "the start y",
    "the goal x",
    "the goal y",
    "the optimal length",
];

/// Parses a scenario file from `reader`, streaming line by line, into its problems in
/// file order.
///
/// # Errors
/// [`LoadError::Parse`] with the 1-based line number for: a first non-empty line that is
/// not `version X`, a problem line with fewer than 9 fields, a bucket, width or height
/// that is not an integer in `u32`, a coordinate or length that is not a finite number,
/// a map name that is not UTF-8, a line longer than 64 KiB. [`LoadError::Io`] if reading
/// fails; [`LoadError::Mesh`] with
/// [`MeshError::OutOfMemory`](crate::MeshError::OutOfMemory) if the problems do not fit
/// in memory. A file with a version line and no problems is valid.
pub fn parse_scenario(reader: impl BufRead) -> Result<Vec<ScenarioProblem>, LoadError> {
    let mut lines = LineReader::new(reader);
    let mut problems = Vec::new();
    let mut seen_version = false;
    let too_long = |line| {
        LoadError::parse(
            line,
            format!("the line is longer than {MAX_LINE_LEN} bytes"),
        )
    };
    while let Some((line, text)) = lines.next_line(MAX_LINE_LEN, too_long)? {
        let fields = split_fields(text);
        if fields.is_empty() {
            continue;
        }
        if !seen_version {
            match fields.as_slice() {
                [(_, key), _] if *key == b"version" => {
                    seen_version = true;
                    continue;
                }
                _ => {
                    let message = format!(
                        "not a scenario file: expected 'version X' on the first line, found {}",
                        quoted(text)
                    );
                    return Err(LoadError::parse(line, message));
                }
            }
        }
        let problem = parse_problem(text, &fields).map_err(|m| LoadError::parse(line, m))?;
        try_push(&mut problems, problem, "scenario problems")?;
    }
    if !seen_version {
        let message = "the file ends where 'version X' was expected";
        return Err(LoadError::parse(lines.line().max(1), message));
    }
    Ok(problems)
}

/// [`parse_scenario`] on bytes in memory. Never panics, whatever the bytes.
///
/// # Errors
/// As [`parse_scenario`] (never [`LoadError::Io`]).
pub fn parse_scenario_bytes(bytes: &[u8]) -> Result<Vec<ScenarioProblem>, LoadError> {
    parse_scenario(bytes)
}

/// The fields of a line: `(start offset, bytes)` of each run of non-blank bytes.
fn split_fields(text: &[u8]) -> Vec<(usize, &[u8])> {
    let mut fields = Vec::new();
    let mut start = None;
    for (i, &b) in text.iter().enumerate() {
        let blank = b.is_ascii_whitespace();
        match (start, blank) {
            (None, false) => start = Some(i),
            (Some(s), true) => {
                fields.push((s, &text[s..i]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        fields.push((s, &text[s..]));
    }
    fields
}

/// One problem line, already split; the error is the message for the user.
fn parse_problem(text: &[u8], fields: &[(usize, &[u8])]) -> Result<ScenarioProblem, String> {
    let count = fields.len();
    if count < 2 + NUMBERS.len() {
        return Err(format!(
            "expected 9 fields (bucket, map, width, height, start x, start y, goal x, goal y, optimal length), found {count}"
        ));
    }
    let (first, numbers) = (fields[0], &fields[count - NUMBERS.len()..]);
    let bucket = integer(first.1, "the bucket")?;
    // The map name: from the second field to the end of the one before the numbers.
    let name_start = fields[1].0;
    let last_name = fields[count - NUMBERS.len() - 1];
    let name = &text[name_start..last_name.0 + last_name.1.len()];
    let map = std::str::from_utf8(name)
        .map_err(|_| format!("the map name {} is not valid UTF-8", quoted(name)))?
        .to_string();
    let map_width = integer(numbers[0].1, NUMBERS[0])?;
    let map_height = integer(numbers[1].1, NUMBERS[1])?;
    let mut reals = [0.0f64; 5];
    for ((value, &(_, token)), what) in reals.iter_mut().zip(&numbers[2..]).zip(&NUMBERS[2..]) {
        *value = real(token, what)?;
    }
    let [sx, sy, gx, gy, optimal_length] = reals;
    Ok(ScenarioProblem {
        bucket,
        map,
        map_width,
        map_height,
        start: DVec2::new(sx, sy),
        goal: DVec2::new(gx, gy),
        optimal_length,
    })
}

fn integer(token: &[u8], what: &str) -> Result<u32, String> {
    std::str::from_utf8(token)
        .ok()
        .and_then(|text| text.parse().ok())
        .ok_or_else(|| {
            format!(
                "{what} {} is not an integer between 0 and {}",
                quoted(token),
                u32::MAX
            )
        })
}

fn real(token: &[u8], what: &str) -> Result<f64, String> {
    std::str::from_utf8(token)
        .ok()
        .and_then(|text| text.parse::<f64>().ok())
        .filter(|value| value.is_finite())
        .ok_or_else(|| format!("{what} {} is not a finite number", quoted(token)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_error(text: &str) -> (u64, String) {
        match parse_scenario_bytes(text.as_bytes()) {
            Err(LoadError::Parse { line, message }) => (line, message),
            other => panic!("expected a parse error, got {other:?}"),
        }
    }

    #[test]
    fn reads_problems_with_mixed_separators() {
        let text = "version 1.0\r\n\r\n0\tmaps/a b.map\t49 49\t1\t11\t1.5 -12 3.41421\r\n  \n7 x 2 3 4 5 6 7 -1";
        let problems = parse_scenario_bytes(text.as_bytes()).unwrap();
        assert_eq!(problems.len(), 2);
        let p = &problems[0];
        assert_eq!(p.bucket, 0);
        assert_eq!(p.map, "maps/a b.map");
        assert_eq!(p.map_file_name(), "a b.map");
        assert_eq!((p.map_width, p.map_height), (49, 49));
        assert_eq!(p.start, DVec2::new(1.0, 11.0));
        assert_eq!(p.goal, DVec2::new(1.5, -12.0));
        assert_eq!(p.optimal_length, 3.41421);
        assert_eq!(p.grid_start(), Vec3::new(1.5, 11.5, 0.0));
        assert_eq!(p.mesh_goal(), Vec3::new(1.5, -12.0, 0.0));
        assert_eq!(problems[1].map, "x");
        assert_eq!(problems[1].optimal_length, -1.0);
        assert!(parse_scenario_bytes(b"version 1\n").unwrap().is_empty());
    }

    #[test]
    fn errors_name_the_line() {
        let good = "version 1\n0 m.map 4 4 1 1 2 2 1.41\n";
        let cases = [
            ("", 1, "'version X' was expected"),
            ("\n\n", 2, "'version X' was expected"),
            ("0 m.map 4 4 1 1 2 2 1\n", 1, "expected 'version X'"),
            ("version\n", 1, "expected 'version X'"),
            ("version 1\n0 4 4 1 1 2 2 1\n", 2, "expected 9 fields"),
            ("version 1\n\n-1 m 4 4 1 1 2 2 1\n", 3, "the bucket \"-1\""),
            ("version 1\n0 m 4.5 4 1 1 2 2 1\n", 2, "the map width"),
            ("version 1\n0 m 4 4 1 1 2 x 1\n", 2, "the goal y \"x\""),
            ("version 1\n0 m 4 4 1 nan 2 2 1\n", 2, "the start y"),
            ("version 1\n0 m 4 4 1 1 2 2 inf\n", 2, "the optimal length"),
        ];
        for (text, line, needle) in cases {
            let (got, message) = parse_error(text);
            assert_eq!(got, line, "{text:?}: {message}");
            assert!(message.contains(needle), "{text:?}: {message}");
        }
        match parse_scenario_bytes(b"version 1\n0 \xff\xfe 4 4 1 1 2 2 1\n") {
            Err(LoadError::Parse { line: 2, message }) => {
                assert!(message.contains("not valid UTF-8"), "{message}");
            }
            other => panic!("expected a parse error, got {other:?}"),
        }
        let (line, message) = parse_error(&format!("{good}{}\n", "9".repeat(MAX_LINE_LEN + 1)));
        assert_eq!(line, 3);
        assert!(message.contains("longer than"), "{message}");
    }
}
