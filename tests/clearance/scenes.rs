//! Hand-made scenes for a disc-shaped agent, as navmeshes laid out on purpose (the
//! polygons matter to a search that will honour a radius, not to the oracle), and random
//! rectangle fields. Ground coordinates are `(x, z)`, Y up.

use navstar::NavMesh;

use crate::common::{Cell, Rng, Soup, p, random_grid_sized};

/// Builds a mesh of convex polygons given by their ground corners (shared corners welded).
fn mesh_of(polygons: &[&[(f32, f32)]]) -> NavMesh {
    let mut soup = Soup::new();
    for corners in polygons {
        let corners: Vec<_> = corners.iter().map(|&(x, z)| p(x, z)).collect();
        soup.polygon_at(&corners);
    }
    soup.build()
}

/// An L-shaped hallway 2 wide: a horizontal arm `[0, 10] x [0, 2]` and a vertical arm
/// `[8, 10] x [0, 10]`. Its one convex wall corner is `(8, 2)`.
pub fn l_turn() -> NavMesh {
    mesh_of(&[
        &[(0., 0.), (8., 0.), (8., 2.), (0., 2.)],
        &[(8., 0.), (10., 0.), (10., 2.), (8., 2.)],
        &[(8., 2.), (10., 2.), (10., 10.), (8., 10.)],
    ])
}

/// Two 4 x 4 rooms, `[0, 4] x [0, 4]` and `[0, 4] x [4.5, 8.5]`, joined through a wall
/// 0.5 thick by a door of width `width` centred on `x = 2`.
pub fn door(width: f32) -> NavMesh {
    let (l, r) = (2.0 - width / 2.0, 2.0 + width / 2.0);
    mesh_of(&[
        &[(0., 0.), (4., 0.), (4., 4.), (r, 4.), (l, 4.), (0., 4.)],
        &[(l, 4.), (r, 4.), (r, 4.5), (l, 4.5)],
        &[
            (0., 4.5),
            (l, 4.5),
            (r, 4.5),
            (4., 4.5),
            (4., 8.5),
            (0., 8.5),
        ],
    ])
}

/// A 20 x 10 room with a pillar `[9.5, 10.5] x [5.2, 6]` whose bottom lies 0.2 above the
/// middle of a portal 20 long: the edge `z = 5` between the lower half and a strip
/// `[0, 20] x [5, 5.2]`. The pillar belongs to neither polygon of that portal.
pub fn pillar_by_long_portal() -> NavMesh {
    mesh_of(&[
        &[(0., 0.), (20., 0.), (20., 5.), (0., 5.)],
        &[
            (0., 5.),
            (20., 5.),
            (20., 5.2),
            (10.5, 5.2),
            (9.5, 5.2),
            (0., 5.2),
        ],
        &[(0., 5.2), (9.5, 5.2), (9.5, 6.), (9.5, 10.), (0., 10.)],
        &[(9.5, 6.), (10.5, 6.), (10.5, 10.), (9.5, 10.)],
        &[(10.5, 5.2), (20., 5.2), (20., 10.), (10.5, 10.), (10.5, 6.)],
    ])
}

/// Kallmann's "disturbance" (see the clearance survey): a corridor `[0, 12] x [0, 4]`
/// with a block `[4, 5] x [3, 4]` under the ceiling and a thin wall `[6.4, 6.6] x [1, 4]`
/// hanging from it. The triangle `(4, 0), (6, 0), (5, 3)` is crossed with the block's
/// corner `b = (5, 3)` as pivot, 3 above the floor edge opposite it, so a width taken
/// from that triangle alone is 3; but the hanging wall's tip `(6.4, 1)`, a vertex of
/// other polygons, leaves a gap of 1 above the floor.
pub fn disturbance() -> NavMesh {
    mesh_of(&[
        &[(0., 0.), (4., 0.), (4., 3.), (4., 4.), (0., 4.)],
        &[(4., 0.), (5., 3.), (4., 3.)],
        &[(4., 0.), (6., 0.), (5., 3.)],
        &[(6., 0.), (6.4, 0.), (6.4, 1.), (5., 3.)],
        &[(5., 3.), (6.4, 1.), (6.4, 4.), (5., 4.)],
        &[(6.4, 0.), (6.6, 0.), (6.6, 1.), (6.4, 1.)],
        &[(6.6, 0.), (12., 0.), (12., 4.), (6.6, 4.), (6.6, 1.)],
    ])
}

/// A room `[0, w] x [0, h]` with 2 to 7 random rectangular obstacles (sides 0.3 to 3,
/// anywhere, overlapping each other or the walls), meshed as the cells of the grid
/// through all rectangle sides.
pub fn rectangle_field(rng: &mut Rng) -> NavMesh {
    let (w, h) = (10.0f32, 8.0f32);
    let count = 2 + rng.below(6);
    let obstacles: Vec<[f32; 4]> = (0..count)
        .map(|_| {
            let (sx, sz) = (0.3 + 2.7 * rng.unit(), 0.3 + 2.7 * rng.unit());
            let (x, z) = (rng.unit() * w - sx / 2.0, rng.unit() * h - sz / 2.0);
            [x.max(0.0), z.max(0.0), (x + sx).min(w), (z + sz).min(h)]
        })
        .collect();
    let lines = |limit: f32, lo: usize, hi: usize| {
        let mut v: Vec<f32> = obstacles.iter().flat_map(|o| [o[lo], o[hi]]).collect();
        v.extend([0.0, limit]);
        v.sort_by(f32::total_cmp);
        v.dedup();
        v
    };
    let (xs, zs) = (lines(w, 0, 2), lines(h, 1, 3));
    let sizes = |v: &[f32]| -> Vec<f32> { v.windows(2).map(|s| s[1] - s[0]).collect() };
    let (widths, heights) = (sizes(&xs), sizes(&zs));
    let mut cells = Vec::new();
    for row in zs.windows(2) {
        for col in xs.windows(2) {
            let (cx, cz) = ((col[0] + col[1]) / 2.0, (row[0] + row[1]) / 2.0);
            let blocked = obstacles
                .iter()
                .any(|o| cx > o[0] && cx < o[2] && cz > o[1] && cz < o[3]);
            cells.push(if blocked { Cell::Hole } else { Cell::Quad });
        }
    }
    random_grid_sized(&cells, &[(0.0, 0.0)], 0.0, &widths, &heights).build()
}

/// The polygons of [`bridge`]: the road under the bridge, in three pieces.
pub const ROAD: [u32; 3] = [0, 1, 2];
/// The polygon of [`bridge`] that is the deck.
pub const DECK: u32 = 5;

/// A two-level bridge (Y up, ground `(x, z)`, heights `y`): a road 6 wide at height 0,
/// `[0, 20] x [4, 10]` (polygons 0 to 2, cut at `x = 8` and `x = 12`), under a bridge 4
/// wide, `x` in `[8, 12]`: a deck at height 3 over `z` in `[2, 12]` (polygon 5), ramps
/// down to height 0 at both ends (`z` in `[-4, 2]`, polygon 4, and `[12, 18]`, polygon
/// 6) and a square at the foot of each ramp, `[2, 18] x [-12, -4]` (polygon 3) and
/// `[2, 18] x [18, 26]` (polygon 7). The road and the bridge do not meet.
pub fn bridge() -> NavMesh {
    bridge_turned(0.0)
}

/// [`bridge`] turned by `angle` (radians) round the vertical axis through the origin:
/// its seams (the ends of the deck) no longer lie along the axes, so the points where
/// the eroded pieces meet across them come out of rounding.
pub fn bridge_turned(angle: f32) -> NavMesh {
    let (sin, cos) = angle.sin_cos();
    let q = |x: f32, y: f32, z: f32| glam::Vec3::new(cos * x - sin * z, y, sin * x + cos * z);
    let mut soup = Soup::new();
    for (x0, x1) in [(0.0, 8.0), (8.0, 12.0), (12.0, 20.0)] {
        soup.polygon_at(&[q(x0, 0., 4.), q(x1, 0., 4.), q(x1, 0., 10.), q(x0, 0., 10.)]);
    }
    soup.polygon_at(&[
        q(2., 0., -12.),
        q(18., 0., -12.),
        q(18., 0., -4.),
        q(12., 0., -4.),
        q(8., 0., -4.),
        q(2., 0., -4.),
    ]);
    soup.polygon_at(&[
        q(8., 0., -4.),
        q(12., 0., -4.),
        q(12., 3., 2.),
        q(8., 3., 2.),
    ]);
    soup.polygon_at(&[
        q(8., 3., 2.),
        q(12., 3., 2.),
        q(12., 3., 12.),
        q(8., 3., 12.),
    ]);
    soup.polygon_at(&[
        q(8., 3., 12.),
        q(12., 3., 12.),
        q(12., 0., 18.),
        q(8., 0., 18.),
    ]);
    soup.polygon_at(&[
        q(2., 0., 18.),
        q(8., 0., 18.),
        q(12., 0., 18.),
        q(18., 0., 18.),
        q(18., 0., 26.),
        q(2., 0., 26.),
    ]);
    soup.build()
}
