//! The SVG document of a mesh and an optional route.

use std::fmt::Write as _;

use clap::ValueEnum;
use navstar::glam::{Vec2, Vec3};
use navstar::{NavMesh, Obstacle};

use super::Route;
use super::path_data::{PathData, Point, Quantum};
use crate::{common, stats};

/// Fill colours of the islands (island `i` gets colour `i % len`).
const ISLAND_FILLS: &[&str] = &[
    "#f4f1ea", "#d8eedd", "#dbe6f6", "#f6e0d8", "#e9dcf5", "#f3efc9",
];
const BACKGROUND: &str = "#3d434c";
const CORRIDOR_FILL: &str = "#ffd98a";
const EDGE_STROKE: &str = "#aab4bf";
const WALL_STROKE: &str = "#1f2329";
/// The boundary of the region an agent's centre may occupy (`--radius`).
const ERODED_STROKE: &str = "#0b7285";
const PORTAL_STROKE: &str = "#e8710a";
const PATH_STROKE: &str = "#d62828";
const START_FILL: &str = "#2a9d3f";
const GOAL_FILL: &str = "#1d5fd1";
const TILE_STROKE: &str = "#2b8cbe";
const DOOR_FILL: &str = "#c0392b";
/// Obstacles carved out of the mesh (`--obstacle`).
const OBSTACLE_FILL: &str = "#6c3483";
/// Stroke colours of agents' trails (trail `i` gets colour `i % len`).
const TRAIL_STROKES: &[&str] = &[
    "#d62828", "#1d5fd1", "#2a9d3f", "#8e44ad", "#e8710a", "#0e7c86",
];

/// In `auto` mode, shared edges and portals are left out when the median polygon is
/// narrower than this many pixels: they would only cover the picture.
const MIN_POLYGON_PX: f64 = 3.0;

/// Which shared (interior) polygon edges to draw (`--edges`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EdgeDetail {
    /// All of them and the corridor's portals, unless the median polygon is narrower than
    /// 3 pixels
    Auto,
    /// All of them, and the corridor's portals
    All,
    /// None (walls and the corridor's portals are still drawn)
    None,
}

/// A mesh fitted into a picture: the mapping from world to picture coordinates.
pub struct Picture<'a> {
    mesh: &'a NavMesh,
    /// Picture width and height in pixels.
    size_px: (u32, u32),
    /// The `viewBox`: min x, min y, width, height (picture coordinates, world units).
    view: [f32; 4],
    /// Pixels per world unit.
    scale: f32,
    /// Whether the second ground axis points up (picture y = -ground y).
    y_up: bool,
    /// Coordinates are rounded to this step: about a tenth of a pixel.
    quantum: Quantum,
    /// Whether shared edges are drawn.
    draw_edges: bool,
    /// Whether the corridor's portals are drawn.
    draw_portals: bool,
    /// Tile squares to outline: low and high corners in the ground plane.
    tiles: &'a [(Vec2, Vec2)],
    /// The mesh eroded by the agent's radius, whose boundary is drawn (`--radius`).
    eroded: Option<&'a NavMesh>,
    /// Polygons to fill as doors.
    doors: &'a [u32],
    /// Agents' trails to draw, each a polyline of world points.
    trails: &'a [Vec<Vec3>],
    /// Obstacles carved out of the mesh (`--obstacle`), outlined.
    obstacles: &'a [Obstacle],
}

impl<'a> Picture<'a> {
    /// Fits `mesh` into a picture `width` pixels wide, with a small margin.
    pub fn new(mesh: &'a NavMesh, width: u32, y_up: bool, edges: EdgeDetail) -> Picture<'a> {
        let up = mesh.up_axis();
        let bounds = mesh.bounds();
        let (lo, hi) = (up.ground(bounds.min), up.ground(bounds.max));
        let extent = (hi - lo).max(Vec2::splat(1e-6));
        let margin = extent.max_element() * 0.02;
        let (w, h) = (extent.x + 2.0 * margin, extent.y + 2.0 * margin);
        let scale = width as f32 / w;
        let height = ((h * scale).round() as u32).max(1);
        let min_y = if y_up { -hi.y } else { lo.y };
        let tenth_px = 0.1 / f64::from(scale);
        let decimals = (-tenth_px.log10()).ceil().clamp(0.0, 6.0) as u32;
        let visible = || typical_polygon_size(mesh) * f64::from(scale) >= MIN_POLYGON_PX;
        let (draw_edges, draw_portals) = match edges {
            EdgeDetail::All => (true, true),
            EdgeDetail::None => (false, true),
            EdgeDetail::Auto => {
                let visible = visible();
                (visible, visible)
            }
        };
        Picture {
            mesh,
            size_px: (width, height),
            view: [lo.x - margin, min_y - margin, w, h],
            scale,
            y_up,
            quantum: Quantum::new(decimals),
            draw_edges,
            draw_portals,
            tiles: &[],
            eroded: None,
            doors: &[],
            trails: &[],
            obstacles: &[],
        }
    }

    /// This picture with the footprints of `obstacles` outlined over the mesh.
    pub fn with_obstacles(self, obstacles: &'a [Obstacle]) -> Picture<'a> {
        Picture { obstacles, ..self }
    }

    /// This picture with the boundary of `eroded` (the region an agent's centre may
    /// occupy) drawn over the mesh.
    pub fn with_eroded(self, eroded: Option<&'a NavMesh>) -> Picture<'a> {
        Picture { eroded, ..self }
    }

    /// This picture with the borders of tile squares drawn over the mesh.
    pub fn with_tiles(self, tiles: &'a [(Vec2, Vec2)]) -> Picture<'a> {
        Picture { tiles, ..self }
    }

    /// This picture with `doors` filled in red over the mesh.
    pub fn with_doors(self, doors: &'a [u32]) -> Picture<'a> {
        Picture { doors, ..self }
    }

    /// This picture with the agents' `trails` drawn as thin polylines on top (colours
    /// cycle through a few).
    pub fn with_trails(self, trails: &'a [Vec<Vec3>]) -> Picture<'a> {
        Picture { trails, ..self }
    }

    /// Whether shared edges and portals are drawn.
    pub fn draws_edges(&self) -> (bool, bool) {
        (self.draw_edges, self.draw_portals)
    }

    /// A world point in picture coordinates, in quanta.
    fn point(&self, p: Vec3) -> Point {
        let g = self.mesh.up_axis().ground(p);
        let y = if self.y_up { -g.y } else { g.y };
        (self.quantum.count(g.x), self.quantum.count(y))
    }

    /// Vertex `v` in picture coordinates.
    fn vertex(&self, v: u32) -> Point {
        self.point(self.mesh.vertex(v))
    }

    /// Formats a point as `x y`.
    fn format_point(&self, p: Point) -> String {
        format!("{} {}", self.quantum.format(p.0), self.quantum.format(p.1))
    }

    /// Path data of closed polygons.
    fn polygons_path(&self, polygons: impl Iterator<Item = u32>) -> PathData {
        let mut d = PathData::new(self.quantum);
        for p in polygons {
            let corners = self.mesh.polygon_vertices(p);
            d.polygon(corners.iter().map(|&v| self.vertex(v)));
        }
        d
    }

    /// Path data of edges given as vertex pairs.
    fn edges_path(&self, edges: impl Iterator<Item = (u32, u32)>) -> PathData {
        let mut d = PathData::new(self.quantum);
        for (a, b) in edges {
            d.segment(self.vertex(a), self.vertex(b));
        }
        d
    }

    /// The edges of `polygon` whose neighbour passes `keep`, as vertex pairs.
    fn polygon_edges<F: Fn(Option<u32>) -> bool + 'a>(
        &self,
        polygon: u32,
        keep: F,
    ) -> impl Iterator<Item = (u32, u32)> + 'a {
        let corners = self.mesh.polygon_vertices(polygon);
        let neighbours = self.mesh.polygon_neighbours(polygon);
        neighbours
            .enumerate()
            .filter(move |&(_, n)| keep(n))
            .map(move |(i, _)| (corners[i], corners[(i + 1) % corners.len()]))
    }

    /// Stroke attributes for a line `width_px` pixels wide in the picture.
    fn stroke(&self, colour: &str, width_px: f32) -> String {
        format!(
            "stroke=\"{colour}\" stroke-width=\"{}\"",
            format_length(width_px / self.scale)
        )
    }

    /// Appends `<path class=.. attributes d=..>` unless `d` is empty.
    fn path_element(svg: &mut String, class: &str, attributes: &str, d: PathData) {
        if !d.is_empty() {
            let _ = writeln!(
                svg,
                "<path class=\"{class}\" {attributes} d=\"{}\"/>",
                d.finish()
            );
        }
    }

    /// The whole SVG document.
    pub fn render(&self, title: &str, route: Option<&Route>) -> String {
        let mesh = self.mesh;
        let view: Vec<String> = self
            .view
            .iter()
            .map(|&v| self.quantum.format(self.quantum.count(v)))
            .collect();
        let mut svg = String::new();
        let _ = writeln!(
            svg,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"{}\">",
            self.size_px.0,
            self.size_px.1,
            view.join(" ")
        );
        let _ = writeln!(svg, "<title>{}</title>", escape(title));
        let _ = writeln!(
            svg,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{BACKGROUND}\"/>",
            view[0], view[1], view[2], view[3]
        );
        // Polygon fills, one path per colour; a hairline of the same colour hides the
        // anti-aliasing seams between neighbours.
        for (colour, fill) in ISLAND_FILLS.iter().enumerate() {
            let polygons = mesh
                .polygon_ids()
                .filter(|&p| mesh.island(p) as usize % ISLAND_FILLS.len() == colour);
            let attributes = format!("fill=\"{fill}\" {}", self.stroke(fill, 0.6));
            Self::path_element(
                &mut svg,
                "island",
                &attributes,
                self.polygons_path(polygons),
            );
        }
        if let Some(route) = route {
            let attributes = format!(
                "fill=\"{CORRIDOR_FILL}\" {}",
                self.stroke(CORRIDOR_FILL, 0.6)
            );
            let d = self.polygons_path(route.corridor.iter().copied());
            Self::path_element(&mut svg, "corridor", &attributes, d);
        }
        if self.draw_edges {
            let shared = mesh
                .polygon_ids()
                .flat_map(|p| self.polygon_edges(p, move |n| n.is_some_and(|n| n > p)));
            let attributes = format!("fill=\"none\" {}", self.stroke(EDGE_STROKE, 0.5));
            Self::path_element(&mut svg, "edges", &attributes, self.edges_path(shared));
        }
        let walls = mesh
            .polygon_ids()
            .flat_map(|p| self.polygon_edges(p, |n| n.is_none()));
        let attributes = format!("fill=\"none\" {}", self.stroke(WALL_STROKE, 1.0));
        Self::path_element(&mut svg, "walls", &attributes, self.edges_path(walls));
        if let Some(eroded) = self.eroded {
            let mut d = PathData::new(self.quantum);
            for p in eroded.polygon_ids() {
                let corners = eroded.polygon_vertices(p);
                for (i, n) in eroded.polygon_neighbours(p).enumerate() {
                    if n.is_none() {
                        let (a, b) = (corners[i], corners[(i + 1) % corners.len()]);
                        d.segment(self.point(eroded.vertex(a)), self.point(eroded.vertex(b)));
                    }
                }
            }
            let attributes = format!("fill=\"none\" {}", self.stroke(ERODED_STROKE, 1.0));
            Self::path_element(&mut svg, "eroded", &attributes, d);
        }
        if !self.obstacles.is_empty() {
            let up = mesh.up_axis();
            let mut d = PathData::new(self.quantum);
            for obstacle in self.obstacles {
                d.polygon(
                    obstacle
                        .footprint()
                        .iter()
                        .map(|&q| self.point(up.place(q, 0.0))),
                );
            }
            let attributes = format!(
                "fill=\"{OBSTACLE_FILL}\" fill-opacity=\"0.5\" {}",
                self.stroke(OBSTACLE_FILL, 1.0)
            );
            Self::path_element(&mut svg, "obstacles", &attributes, d);
        }
        if !self.tiles.is_empty() {
            let up = mesh.up_axis();
            let mut d = PathData::new(self.quantum);
            for &(lo, hi) in self.tiles {
                let corner = |x: f32, y: f32| self.point(up.place(Vec2::new(x, y), 0.0));
                d.polygon(
                    [(lo.x, lo.y), (hi.x, lo.y), (hi.x, hi.y), (lo.x, hi.y)]
                        .into_iter()
                        .map(|(x, y)| corner(x, y)),
                );
            }
            let dash = format_length(4.0 / self.scale);
            let attributes = format!(
                "fill=\"none\" stroke-dasharray=\"{dash}\" {}",
                self.stroke(TILE_STROKE, 1.0)
            );
            Self::path_element(&mut svg, "tiles", &attributes, d);
        }
        if !self.doors.is_empty() {
            let attributes = format!("fill=\"{DOOR_FILL}\" {}", self.stroke(DOOR_FILL, 0.6));
            let d = self.polygons_path(self.doors.iter().copied());
            Self::path_element(&mut svg, "doors", &attributes, d);
        }
        if let Some(route) = route {
            self.render_route(&mut svg, route);
        }
        self.render_trails(&mut svg);
        svg.push_str("</svg>\n");
        svg
    }

    /// The agents' trails, one `<polyline class="trail">` each (none for a trail of
    /// fewer than two points).
    fn render_trails(&self, svg: &mut String) {
        for (i, trail) in self.trails.iter().enumerate() {
            if trail.len() < 2 {
                continue;
            }
            let points: Vec<String> = trail
                .iter()
                .map(|&p| self.format_point(self.point(p)))
                .collect();
            let _ = writeln!(
                svg,
                "<polyline class=\"trail\" fill=\"none\" stroke-linejoin=\"round\" {} points=\"{}\"/>",
                self.stroke(TRAIL_STROKES[i % TRAIL_STROKES.len()], 1.0),
                points.join(" ")
            );
        }
    }

    /// The portals, the path polyline and the end markers.
    fn render_route(&self, svg: &mut String, route: &Route) {
        let portals = route.corridor.windows(2).filter_map(|pair| {
            let (a, b) = (pair[0], pair[1]);
            let slot = self.mesh.polygon_neighbours(a).position(|n| n == Some(b))?;
            let corners = self.mesh.polygon_vertices(a);
            Some((corners[slot], corners[(slot + 1) % corners.len()]))
        });
        let attributes = format!(
            "fill=\"none\" stroke-linecap=\"round\" {}",
            self.stroke(PORTAL_STROKE, 1.5)
        );
        if self.draw_portals {
            Self::path_element(svg, "portals", &attributes, self.edges_path(portals));
        }
        let points: Vec<String> = route
            .corners
            .iter()
            .map(|&c| self.format_point(self.point(c)))
            .collect();
        let _ = writeln!(
            svg,
            "<polyline class=\"path\" fill=\"none\" stroke-linejoin=\"round\" stroke-linecap=\"round\" {} points=\"{}\"/>",
            self.stroke(PATH_STROKE, 3.0),
            points.join(" ")
        );
        let radius = format_length(5.0 / self.scale);
        let ends = [
            (route.corners.first(), START_FILL, "start"),
            (route.corners.last(), GOAL_FILL, "goal"),
        ];
        for (corner, fill, class) in ends {
            if let Some(&c) = corner {
                let (x, y) = self.point(c);
                let _ = writeln!(
                    svg,
                    "<circle class=\"{class}\" cx=\"{}\" cy=\"{}\" r=\"{radius}\" fill=\"{fill}\" {}/>",
                    self.quantum.format(x),
                    self.quantum.format(y),
                    self.stroke("#ffffff", 1.5)
                );
            }
        }
    }
}

/// The median polygon width, in world units: `2 * area / perimeter` of each polygon
/// (the side of a square, the short side of a long thin rectangle).
fn typical_polygon_size(mesh: &NavMesh) -> f64 {
    let mut widths: Vec<f64> = mesh
        .polygon_ids()
        .map(|p| {
            let corners: Vec<Vec2> = common::ground_polygon(mesh, p).collect();
            let perimeter: f64 = (0..corners.len())
                .map(|i| f64::from(corners[i].distance(corners[(i + 1) % corners.len()])))
                .sum();
            2.0 * common::polygon_area(mesh, p) / perimeter.max(f64::MIN_POSITIVE)
        })
        .collect();
    widths.sort_by(f64::total_cmp);
    stats::median(&widths)
}

/// A length in world units with enough decimals to keep 3 significant digits.
fn format_length(length: f32) -> String {
    let magnitude = length.abs().max(1e-9);
    let decimals = (2.0 - magnitude.log10().floor()).clamp(0.0, 9.0) as usize;
    common::format_number(length, decimals)
}

/// `text` with the XML special characters escaped.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_keep_three_digits() {
        assert_eq!(format_length(0.0015625), "0.00156");
        assert_eq!(format_length(48.88), "48.9");
        assert_eq!(format_length(-48.94), "-48.9");
        assert_eq!(format_length(1234.7), "1235");
        assert_eq!(escape("a<b&\"c\">"), "a&lt;b&amp;&quot;c&quot;&gt;");
    }
}
