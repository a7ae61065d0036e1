//! Compact SVG path data (`d="..."`).
//!
//! Points are integers: picture coordinates counted in a fixed quantum (a power of ten
//! of world units, see [`Quantum`]), so that relative moves add up exactly. After the
//! first absolute `M`, every command is relative (`m`, `l`, and `h`/`v` for horizontal
//! and vertical lines, which is most of a grid map), a line that starts where the last
//! one ended is continued without a move, and separators are left out where a minus
//! sign already separates two numbers.

use std::fmt::Write as _;

/// The rounding step of picture coordinates: `10^-decimals` world units.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Quantum {
    decimals: u32,
}

impl Quantum {
    /// A quantum of `10^-decimals` units (`decimals` at most 9).
    pub fn new(decimals: u32) -> Quantum {
        Quantum {
            decimals: decimals.min(9),
        }
    }

    /// The quantum in world units.
    pub fn size(self) -> f64 {
        10f64.powi(-(self.decimals as i32))
    }

    /// `value` in quanta, rounded.
    pub fn count(self, value: f32) -> i64 {
        (f64::from(value) / self.size()).round() as i64
    }

    /// `count` quanta as a decimal number, without trailing zeros.
    pub fn format(self, count: i64) -> String {
        let sign = if count < 0 { "-" } else { "" };
        let magnitude = count.unsigned_abs();
        let divisor = 10u64.pow(self.decimals);
        let (whole, fraction) = (magnitude / divisor, magnitude % divisor);
        if fraction == 0 {
            return format!("{sign}{whole}");
        }
        let digits = format!("{fraction:0width$}", width = self.decimals as usize);
        format!("{sign}{whole}.{}", digits.trim_end_matches('0'))
    }
}

/// A point in quanta.
pub type Point = (i64, i64);

/// A path-data writer.
#[derive(Debug)]
pub struct PathData {
    quantum: Quantum,
    d: String,
    /// The current point, once something was drawn.
    pen: Option<Point>,
    /// Where the current subpath started (`z` returns there).
    subpath: Point,
}

impl PathData {
    /// An empty path with coordinates in `quantum`.
    pub fn new(quantum: Quantum) -> PathData {
        PathData {
            quantum,
            d: String::new(),
            pen: None,
            subpath: (0, 0),
        }
    }

    /// Starts a subpath at `p`.
    pub fn move_to(&mut self, p: Point) {
        match self.pen {
            None => self.command('M', &[p.0, p.1]),
            Some(pen) => self.command('m', &[p.0 - pen.0, p.1 - pen.1]),
        }
        self.pen = Some(p);
        self.subpath = p;
    }

    /// A line from the current point to `p`.
    pub fn line_to(&mut self, p: Point) {
        let pen = self.pen.unwrap_or(p);
        match (p.0 - pen.0, p.1 - pen.1) {
            (0, 0) => return,
            (dx, 0) => self.command('h', &[dx]),
            (0, dy) => self.command('v', &[dy]),
            (dx, dy) => self.command('l', &[dx, dy]),
        }
        self.pen = Some(p);
    }

    /// A separate line segment from `a` to `b`, continuing the current line when it
    /// ends at `a`.
    pub fn segment(&mut self, a: Point, b: Point) {
        if self.pen != Some(a) {
            self.move_to(a);
        }
        self.line_to(b);
    }

    /// A closed polygon through `corners`.
    pub fn polygon(&mut self, corners: impl IntoIterator<Item = Point>) {
        let mut corners = corners.into_iter();
        let Some(first) = corners.next() else {
            return;
        };
        self.move_to(first);
        for corner in corners {
            self.line_to(corner);
        }
        self.d.push('z');
        self.pen = Some(self.subpath);
    }

    /// Whether nothing was drawn.
    pub fn is_empty(&self) -> bool {
        self.d.is_empty()
    }

    /// The path data.
    pub fn finish(self) -> String {
        self.d
    }

    fn command(&mut self, letter: char, numbers: &[i64]) {
        self.d.push(letter);
        for (i, &n) in numbers.iter().enumerate() {
            if i > 0 && n >= 0 {
                self.d.push(' ');
            }
            let _ = write!(self.d, "{}", self.quantum.format(n));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quanta_format_exactly() {
        let q = Quantum::new(2);
        assert_eq!(q.count(1.005), 100); // 1.005 is 1.00499.. in f32
        assert_eq!(q.count(-7.5), -750);
        assert_eq!(q.format(-750), "-7.5");
        assert_eq!(q.format(-5), "-0.05");
        assert_eq!(q.format(1200), "12");
        assert_eq!(Quantum::new(0).format(-3), "-3");
    }

    #[test]
    fn relative_commands() {
        let mut d = PathData::new(Quantum::new(0));
        d.polygon([(10, 10), (13, 10), (13, 8), (10, 7)]);
        d.segment((13, 10), (14, 12));
        d.segment((14, 12), (15, 12));
        assert_eq!(d.finish(), "M10 10h3v-2l-3-1zm3 0l1 2h1");
    }
}
