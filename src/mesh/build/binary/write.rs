//! Encoding a mesh in the binary format (see the parent module for the layout).

use std::sync::atomic::Ordering;

use glam::Vec3;

use super::{
    AREAS, FLAGS, FORMAT_VERSION, HOP_STARTS, HOPS, ISLANDS, LANE, LANE_CORNERS, LANE_LABELS,
    LANE_SLOTS, LANE_STARTS, LINKS, MAGIC, MERGED, MESH, OF_MERGED, OPTIONS, PolygonSections,
    Section, TILE, VERTICES,
};
use crate::geometry::{Aabb, UpAxis};
use crate::mesh::MeshData;
use crate::mesh::build::connectors::is_collinear_triangle;

/// The whole file: header and one tile record.
pub(super) fn encode(mesh: &MeshData) -> Vec<u8> {
    let mut payload = Vec::new();
    record(&mut payload, TILE, |out| tile(out, mesh));
    seal(MAGIC, FORMAT_VERSION, 1, &payload)
}

/// A file in the navstar container layout: the header (`magic`, the format `version`,
/// the record count, the payload's length and CRC-32), then the payload.
pub(crate) fn seal(magic: [u8; 8], version: u32, records: u32, payload: &[u8]) -> Vec<u8> {
    let mut file = Vec::with_capacity(super::HEADER_LEN + payload.len());
    file.extend_from_slice(&magic);
    file.extend_from_slice(&version.to_le_bytes());
    file.extend_from_slice(&records.to_le_bytes());
    file.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    file.extend_from_slice(&crc32fast::hash(payload).to_le_bytes());
    file.extend_from_slice(&0u32.to_le_bytes());
    debug_assert_eq!(file.len(), super::HEADER_LEN);
    file.extend_from_slice(payload);
    file
}

/// A tag, a `u64` length, then what `body` writes.
pub(crate) fn record(out: &mut Vec<u8>, tag: [u8; 4], body: impl FnOnce(&mut Vec<u8>)) {
    out.extend_from_slice(&tag);
    let length_at = out.len();
    out.extend_from_slice(&0u64.to_le_bytes());
    body(out);
    let length = (out.len() - length_at - 8) as u64;
    out[length_at..length_at + 8].copy_from_slice(&length.to_le_bytes());
}

/// A section whose records are the items of `items`, each written by `put`.
fn section<T>(
    out: &mut Vec<u8>,
    section: Section,
    items: impl IntoIterator<Item = T>,
    mut put: impl FnMut(&mut Vec<u8>, T),
) {
    record(out, section.tag, |out| {
        for item in items {
            let before = out.len();
            put(out, item);
            debug_assert_eq!(out.len() - before, section.record, "{}", section.name);
        }
    });
}

fn u32s(out: &mut Vec<u8>, section_: Section, values: &[u32]) {
    section(out, section_, values, |out, v| put_u32(out, *v));
}

fn put_u32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put_f32(out: &mut Vec<u8>, v: f32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put_f64(out: &mut Vec<u8>, v: f64) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put_vec3(out: &mut Vec<u8>, v: Vec3) {
    for c in v.to_array() {
        put_f32(out, c);
    }
}

fn put_aabb(out: &mut Vec<u8>, b: Aabb) {
    put_vec3(out, b.min);
    put_vec3(out, b.max);
}

fn tile(out: &mut Vec<u8>, mesh: &MeshData) {
    // Welding is done by now (the corners are welded); whether degenerate connectors
    // are allowed is whether the mesh has any.
    let connectors = (0..mesh.polygon_count()).any(|p| {
        is_collinear_triangle(&mesh.corners[mesh.corner_range(p)], mesh.ground.as_single())
    });
    section(out, OPTIONS, [()], |out, ()| {
        out.push(match mesh.up {
            UpAxis::Y => 0,
            UpAxis::Z => 1,
        });
        out.push(u8::from(connectors));
        out.extend_from_slice(&[0, 0]);
        put_u32(out, mesh.island_count);
        put_u32(out, mesh.clearance.baked_radius.to_bits());
    });
    section(out, VERTICES, mesh.vertices.as_single(), |out, v| {
        put_vec3(out, *v)
    });
    polygons(out, &MESH, mesh);
    section(out, AREAS, mesh.areas.as_single(), |out, a| out.push(*a));
    section(out, FLAGS, mesh.flags.as_single(), |out, f| {
        put_u32(out, f.load(Ordering::Relaxed));
    });
    let islands: Vec<u32> = (0..mesh.polygon_count()).map(|p| mesh.island(p)).collect();
    u32s(out, ISLANDS, &islands);
    let links = &mesh.links;
    let per_link = links
        .cost
        .as_single()
        .iter()
        .zip(links.area.as_single())
        .zip(links.flags.as_single());
    section(out, LINKS, per_link, |out, ((cost, area), flags)| {
        put_f32(out, *cost);
        out.extend_from_slice(&[*area, 0, 0, 0]);
        put_u32(out, flags.load(Ordering::Relaxed));
    });
    u32s(out, HOP_STARTS, links.hop_start.as_single());
    section(out, HOPS, links.hops.as_single(), |out, hop| {
        put_u32(out, hop.link);
        put_vec3(out, hop.from);
        put_vec3(out, hop.to);
        put_u32(out, hop.to_polygon);
    });
    match mesh.coarse() {
        None => u32s(out, OF_MERGED, &[]),
        Some(coarse) => {
            u32s(out, OF_MERGED, coarse.of_original.as_single());
            polygons(out, &MERGED, &coarse.mesh);
        }
    }
    lane(out, mesh);
}

/// The fast lane's index when the mesh has one: its sizes, the corner of each slot,
/// the corners and their labels; else an empty sizes section.
fn lane(out: &mut Vec<u8>, mesh: &MeshData) {
    let Some(lane) = mesh.fast_lane.get().and_then(Option::as_deref) else {
        section(out, LANE, [], |_, ()| {});
        return;
    };
    section(out, LANE, [()], |out, ()| {
        out.extend_from_slice(&[u8::from(lane.on_coarse), 0, 0, 0]);
        put_u32(out, lane.corner_count() as u32);
        out.extend_from_slice(&(lane.edge_count as u64).to_le_bytes());
    });
    u32s(out, LANE_SLOTS, &lane.node_of_slot);
    let corners = lane.vertex.iter().zip(&lane.walls);
    section(out, LANE_CORNERS, corners, |out, (vertex, walls)| {
        put_u32(out, *vertex);
        put_u32(out, u32::from(walls.is_some()));
        for end in walls.unwrap_or_default() {
            for c in end.to_array() {
                put_f64(out, c);
            }
        }
    });
    u32s(out, LANE_STARTS, &lane.label_start);
    section(out, LANE_LABELS, &lane.labels, |out, label| {
        put_u32(out, label.hub);
        put_u32(out, label.toward);
        put_f64(out, label.distance);
    });
}

/// The polygon tables of `mesh`, in `sections`.
fn polygons(out: &mut Vec<u8>, sections: &PolygonSections, mesh: &MeshData) {
    u32s(out, sections.polygons, mesh.poly_start.as_single());
    u32s(out, sections.corners, mesh.corners.as_single());
    u32s(out, sections.neighbours, mesh.neighbours.as_single());
    u32s(out, sections.twins, mesh.twin.as_single());
    section(
        out,
        sections.portals,
        mesh.portals.as_single(),
        |out, [l, r]| {
            put_u32(out, *l);
            put_u32(out, *r);
        },
    );
    let index = &mesh.tiles[0].index;
    section(out, sections.nodes, &index.nodes, |out, node| {
        put_aabb(out, node.bounds);
        put_u32(out, node.right_or_first);
        put_u32(out, node.count);
    });
    let entries = index.polygons.iter().zip(&index.polygon_bounds);
    section(out, sections.entries, entries, |out, (polygon, bounds)| {
        put_u32(out, *polygon);
        put_aabb(out, *bounds);
    });
}
