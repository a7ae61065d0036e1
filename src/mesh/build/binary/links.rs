//! Checking the saved off-mesh links and their hops against the polygons.

use std::sync::Arc;

use glam::Vec3;

use super::BinaryError;
use super::check::{CheckedPolygons, Located};
use crate::alloc::{try_collect, try_filled};
use crate::error::MeshError;
use crate::filter::MAX_AREAS;
use crate::mesh::links::{LinkHop, Links};
use crate::sync::AtomicU32;

/// Links and their hops: valid costs and areas; hops grouped by the polygon they leave
/// from, in link order; each link has its forward hop and, when two-way, the mirror one;
/// each hop's ends lie on their polygons.
pub(super) fn check_links(
    links: &Located<(f32, u8, [u8; 3], u32)>,
    starts: &Located<u32>,
    hops: &Located<(u32, Vec3, Vec3, u32)>,
    polygons: &CheckedPolygons,
    vertices: &[Vec3],
) -> Result<Links, BinaryError> {
    let polygon_count = polygons.poly_start.len() - 1;
    for (i, &(cost, area, reserved, _)) in links.items.iter().enumerate() {
        if !(cost.is_finite() && cost >= 0.0) {
            return Err(links.invalid(i, "cost must be finite and >= 0"));
        }
        if usize::from(area) >= MAX_AREAS || reserved != [0; 3] {
            return Err(links.invalid(i, "area is not below 64 or a reserved byte is not 0"));
        }
    }
    if links.items.is_empty() {
        starts.expect_len(0, "links")?;
        hops.expect_len(0, "links")?;
        return Ok(Links::default());
    }
    if links.items.len() > (u32::MAX / 4) as usize {
        return Err(MeshError::TooLarge("more than 2^30 off-mesh links").into());
    }
    starts.expect_len(polygon_count + 1, "polygons (plus one)")?;
    if starts.items[0] != 0 || starts.items[polygon_count] as usize != hops.items.len() {
        return Err(starts.invalid(0, "offsets do not run from 0 to the hop count"));
    }
    let mut per_link = try_filled(links.items.len(), 0u8, "link hops")?;
    let corners = &polygons.corners;
    let poly_start = &polygons.poly_start;
    let on_polygon = |p: u32, point: Vec3| {
        let range = poly_start[p as usize] as usize..poly_start[p as usize + 1] as usize;
        let poly = &corners[range];
        let v0 = vertices[poly[0] as usize];
        let nearest = poly[1..]
            .windows(2)
            .map(|w| {
                crate::geometry::closest_point_on_triangle(
                    point,
                    v0,
                    vertices[w[0] as usize],
                    vertices[w[1] as usize],
                )
                .distance(point)
            })
            .fold(f32::INFINITY, f32::min);
        nearest <= 1e-3 * (1.0 + point.abs().max_element())
    };
    for p in 0..polygon_count {
        let (from, to) = (starts.items[p] as usize, starts.items[p + 1] as usize);
        if to < from || to > hops.items.len() {
            return Err(starts.invalid(p + 1, "offsets decrease or pass the hop count"));
        }
        let mut previous = None;
        for h in from..to {
            let (link, start, end, to_polygon) = hops.items[h];
            if link as usize >= links.items.len() || to_polygon as usize >= polygon_count {
                return Err(hops.invalid(h, "link or polygon out of range"));
            }
            // A two-way link with both ends in one polygon has two hops there.
            if previous.is_some_and(|l| l > link) {
                return Err(hops.invalid(h, "hops of a polygon are not in link order"));
            }
            previous = Some(link);
            let ends_on_polygons = start.is_finite()
                && end.is_finite()
                && on_polygon(p as u32, start)
                && on_polygon(to_polygon, end);
            if !ends_on_polygons {
                return Err(hops.invalid(h, "an end is not on its polygon"));
            }
            per_link[link as usize] += 1;
        }
    }
    // A two-way link's second hop mirrors its first.
    let mut first_hop: Vec<Option<(u32, LinkHop)>> =
        try_filled(links.items.len(), None, "link hops")?;
    for p in 0..polygon_count {
        for h in starts.items[p] as usize..starts.items[p + 1] as usize {
            let (link, from, to, to_polygon) = hops.items[h];
            let hop = LinkHop {
                link,
                from,
                to,
                to_polygon,
            };
            match first_hop[link as usize] {
                None => first_hop[link as usize] = Some((p as u32, hop)),
                Some((q, other)) => {
                    if other.to_polygon != p as u32
                        || to_polygon != q
                        || other.from != to
                        || other.to != from
                    {
                        return Err(hops
                            .invalid(h, format!("does not mirror the other hop of link {link}")));
                    }
                }
            }
        }
    }
    if let Some(link) = per_link.iter().position(|&n| n == 0 || n > 2) {
        return Err(links.invalid(link, "has no hop, or more than two"));
    }
    Ok(Links {
        hop_start: Arc::clone(&starts.items).into(),
        hops: try_collect(
            hops.items.len(),
            hops.items
                .iter()
                .map(|&(link, from, to, to_polygon)| LinkHop {
                    link,
                    from,
                    to,
                    to_polygon,
                }),
            "link hops",
        )?
        .into(),
        cost: try_collect(
            links.items.len(),
            links.items.iter().map(|l| l.0),
            "link costs",
        )?
        .into(),
        area: try_collect(
            links.items.len(),
            links.items.iter().map(|l| l.1),
            "link areas",
        )?
        .into(),
        flags: try_collect(
            links.items.len(),
            links.items.iter().map(|l| AtomicU32::new(l.3)),
            "link flags",
        )?
        .into(),
    })
}
