//! Obstacles of a world: added, moved and removed while other threads query. Each change
//! carves again the tiles the obstacle comes near (before and after a move): a tile is
//! rebuilt from the mesh it was added as, minus every obstacle now near it
//! (`mesh/carve.rs`), and swapped in with the world's usual replacement (neighbours
//! stitched again, one snapshot published for the whole change). A tile left with no
//! obstacle gets back the very mesh it was added as. Tiles added later are carved by the
//! obstacles already there.
//!
//! Only the region of the change is cut again (the polygons a changed footprint
//! overlaps, and those of the obstacles overlapping them, `mesh/carve.rs`); the other
//! polygons are kept as they are, pieces included. A carved tile keeps its
//! [`TileRef`](super::TileRef); the generation of its slot moves on, and its polygons
//! are numbered by `numbering.rs` so that polygon references ([`super::PolyRef`]) to
//! kept polygons still resolve to them and those to cut polygons are stale. The tile's
//! run-time polygon flags carry over: each piece takes the flags its original polygon
//! had.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use super::World;
use super::numbering;
use super::obstacle_set::{Carved, comes_near};
use super::state::State;
use super::tile::Tile;
use crate::error::MeshError;
use crate::mesh::carve::{Draft, Present};
use crate::mesh::{NavMesh, Obstacle, OffMeshLink, carve};

/// An obstacle of a [`World`] ([`World::add_obstacle`]). Ids count from 1 and are never
/// used twice by one world; an id that names no obstacle of the world (removed, or from
/// another world) is [`MeshError::StaleObstacle`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObstacleId(pub u64);

/// The tile for `mesh` in `slot` (with `generation`), carved by the world's obstacles,
/// and how it is carved.
///
/// # Errors
/// As [`Tile::new`] and [`carve::carve`].
pub(super) fn carved_tile(
    state: &State,
    mesh: &NavMesh,
    links: &[OffMeshLink],
    slot: u32,
    generation: u32,
) -> Result<(Tile, Option<Carved>), MeshError> {
    let data = mesh.data();
    if data.tiles.len() != 1 || data.local_bits != 32 {
        // Not a tile: refused by `Tile::new`, with its own message.
        return Ok((Tile::new(mesh, links, slot, generation, state)?, None));
    }
    let near = state.obstacles.near(mesh);
    match carve::carve(data, &near)? {
        None => Ok((Tile::new(mesh, links, slot, generation, state)?, None)),
        Some((carved, of_original)) => {
            let tile = Tile::new(&carved, links, slot, generation, state)?;
            let carved = Carved {
                original: mesh.clone(),
                of_original,
                original_flags: (0..mesh.polygon_count())
                    .map(|p| mesh.polygon_flags(p))
                    .collect(),
            };
            Ok((tile, Some(carved)))
        }
    }
}

/// A tile's new state, computed before any is applied.
struct Plan {
    slot: u32,
    tile: Tile,
    generation: u32,
    carved: Option<Carved>,
}

/// Carves the tiles of `slots` again with the world's obstacles after a change of the
/// `changed` ones (added, moved from and to, removed): only the region of the change is
/// cut again ([`carve::draft`]), and the polygons keep their numbers where they are kept
/// ([`numbering`]). The change is computed in full, then applied. Returns whether any
/// tile changed.
fn recarve(state: &mut State, slots: &[u32], changed: &[&Obstacle]) -> Result<bool, MeshError> {
    let mut plans = Vec::new();
    for &slot in slots {
        let tile = state.tile(slot);
        let carved_now = state.obstacles.carved.get(&slot);
        let original = state.obstacles.added_mesh(slot, tile).clone();
        let flags = state.obstacles.flags_as_added(slot, tile);
        let near = state.obstacles.near(&original);
        let identity: Vec<u32>;
        let present = Present {
            mesh: tile.mesh.data(),
            of_original: match carved_now {
                Some(c) => &c.of_original,
                None => {
                    identity = (0..tile.mesh.polygon_count()).collect();
                    &identity
                }
            },
            changed,
        };
        let (draft, uncut) = match carve::draft(original.data(), &near, Some(&present))? {
            Some(draft) => (draft, false),
            None if carved_now.is_none() => continue,
            None => (Draft::uncut_against(original.data(), &present), true),
        };
        let generation = state.next_generation(slot);
        let numbering = numbering::number(
            uncut,
            &tile.mesh,
            |p| carved_now.map_or(p, |c| c.of_original[p as usize]),
            &tile.stamps,
            &draft,
            generation,
        );
        if numbering.unchanged {
            continue; // no polygon of the tile changes
        }
        let in_order = numbering
            .order
            .iter()
            .enumerate()
            .all(|(i, &p)| p == i as u32);
        let (mesh, carved) = if uncut && in_order {
            // The mesh as added, polygon for polygon.
            (original.clone(), None)
        } else {
            let (mesh, of_original) = draft.build(&numbering.order, Some(tile.mesh.data()))?;
            let carved = Carved {
                original: original.clone(),
                of_original,
                original_flags: flags.clone(),
            };
            (mesh, Some(carved))
        };
        let mut new = Tile::new(&mesh, &tile.links.given, slot, tile.generation, state)?;
        new.stamps = Arc::new(numbering.stamps);
        let of = |p: u32| carved.as_ref().map_or(p, |c| c.of_original[p as usize]);
        new.set_flags(|p| flags[of(p) as usize]);
        if new.links.flags.len() == tile.links.flags.len() {
            // The same links (none left out by the cut): their run-time flags carry over.
            for (to, from) in new.links.flags.iter().zip(tile.links.flags.iter()) {
                to.store(from.load(Ordering::Relaxed), Ordering::Relaxed);
            }
        }
        plans.push(Plan {
            slot,
            tile: new,
            generation,
            carved,
        });
    }
    let changed = !plans.is_empty();
    let mut undo: Vec<Plan> = Vec::new();
    for plan in plans {
        // What the slot holds now, to put back should a later swap fail.
        let old = state.tile(plan.slot);
        let mut back = Tile::new(
            &old.mesh,
            &old.links.given,
            plan.slot,
            old.generation,
            state,
        )?;
        back.set_flags(|p| old.flags_of(p));
        back.stamps = old.stamps.clone();
        let back = Plan {
            slot: plan.slot,
            tile: back,
            generation: state.generations()[plan.slot as usize],
            carved: state.obstacles.carved.remove(&plan.slot),
        };
        if let Err(error) = state.swap(plan.slot, plan.tile, plan.generation) {
            state.obstacles.set_carved(back.slot, back.carved);
            for undone in undo.into_iter().rev() {
                // Putting back what was there: the same tiles, already stitched once.
                let _ = state.swap(undone.slot, undone.tile, undone.generation);
                state.obstacles.set_carved(undone.slot, undone.carved);
            }
            return Err(error);
        }
        state.obstacles.set_carved(plan.slot, plan.carved);
        undo.push(back);
    }
    Ok(changed)
}

/// The slots of the tiles that any of `obstacles` comes near.
fn slots_near(state: &State, obstacles: &[&Obstacle]) -> Vec<u32> {
    state
        .present_tiles()
        .filter(|&(slot, tile)| {
            let mesh = state.obstacles.added_mesh(slot, tile);
            obstacles.iter().any(|o| comes_near(o, mesh))
        })
        .map(|(slot, _)| slot)
        .collect()
}

impl World {
    /// Adds an obstacle and carves it into the tiles it overlaps (see [`Obstacle`]):
    /// the touched polygons are cut and split again, the tiles swapped in and one
    /// snapshot published, while other threads go on querying the snapshots they hold.
    /// Polygon references to the polygons it cuts become stale; those to the others,
    /// in the carved tiles too, still resolve to them (see [`crate::PolyRef`]). Tiles
    /// added later are carved by it too.
    ///
    /// # Errors
    /// [`MeshError::CarveFailed`] when a cut cannot be split into polygons;
    /// [`MeshError::TileTooLarge`] when a carved tile has more elements than a slot
    /// numbers. The world is unchanged.
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::{Vec2, Vec3}, MeshOptions, NavMesh, Obstacle, PathOptions, PathStatus, Query, World, WorldOptions};
    ///
    /// // A corridor 10 long and 2 wide, and a crate across it.
    /// let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// let corridor = NavMesh::from_polygons(&[v(0.0, 0.0), v(10.0, 0.0), v(10.0, 2.0), v(0.0, 2.0)], &[0, 1, 2, 3], &[4], &MeshOptions::default())?;
    /// let world = World::new(&WorldOptions::default())?;
    /// world.add_tile(&corridor)?;
    /// let id = world.add_obstacle(&Obstacle::rotated_box(Vec2::new(5.0, 1.0), Vec2::new(0.5, 2.0), 0.0)?)?;
    /// let snapshot = world.snapshot();
    /// let mut query = Query::new(&snapshot);
    /// let path = query.find_path(v(1.0, 1.0), v(9.0, 1.0), &PathOptions::default())?;
    /// assert_eq!(path.status, PathStatus::Partial);
    /// world.remove_obstacle(id)?;
    /// assert_eq!(world.snapshot().polygon_count(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn add_obstacle(&self, obstacle: &Obstacle) -> Result<ObstacleId, MeshError> {
        let mut state = self.lock();
        let id = state.obstacles.last_id + 1;
        state.obstacles.live.insert(id, obstacle.clone());
        let slots = slots_near(&state, &[obstacle]);
        match recarve(&mut state, &slots, &[obstacle]) {
            Ok(changed) => {
                state.obstacles.last_id = id;
                if changed {
                    self.publish(&mut state, super::landmarks::Change::Shrinks);
                }
                Ok(ObstacleId(id))
            }
            Err(error) => {
                state.obstacles.live.remove(&id);
                Err(error)
            }
        }
    }

    /// Gives obstacle `id` a new footprint and height range (moved, turned, resized):
    /// the tiles near it before or after are carved again, in one published snapshot.
    /// References to the polygons the footprint cut or cuts now become stale; the others
    /// still resolve (see [`crate::PolyRef`]).
    ///
    /// # Errors
    /// [`MeshError::StaleObstacle`] when `id` names no obstacle of the world; otherwise
    /// as [`World::add_obstacle`]. The world is unchanged.
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::{Vec2, Vec3}, MeshOptions, NavMesh, Obstacle, World, WorldOptions};
    ///
    /// let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// let room = NavMesh::from_polygons(&[v(0.0, 0.0), v(10.0, 0.0), v(10.0, 10.0), v(0.0, 10.0)], &[0, 1, 2, 3], &[4], &MeshOptions::default())?;
    /// let world = World::new(&WorldOptions::default())?;
    /// world.add_tile(&room)?;
    /// let id = world.add_obstacle(&Obstacle::circle(Vec2::new(3.0, 3.0), 1.0)?)?;
    /// let here = world.snapshot().nearest_point(v(3.0, 3.0), 10.0, None).unwrap().point;
    /// world.move_obstacle(id, &Obstacle::circle(Vec2::new(7.0, 7.0), 1.0)?)?;
    /// let there = world.snapshot().nearest_point(v(3.0, 3.0), 10.0, None).unwrap().point;
    /// assert!(here.distance(v(3.0, 3.0)) > 0.999); // out of the disc
    /// assert!(there.distance(v(3.0, 3.0)) < 1e-6); // free again
    /// assert!(world.move_obstacle(navstar::ObstacleId(99), &Obstacle::circle(Vec2::ONE, 1.0)?).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn move_obstacle(&self, id: ObstacleId, obstacle: &Obstacle) -> Result<(), MeshError> {
        let mut state = self.lock();
        let Some(old) = state.obstacles.live.insert(id.0, obstacle.clone()) else {
            state.obstacles.live.remove(&id.0);
            return Err(MeshError::StaleObstacle { id: id.0 });
        };
        let slots = slots_near(&state, &[&old, obstacle]);
        match recarve(&mut state, &slots, &[&old, obstacle]) {
            Ok(changed) => {
                if changed {
                    self.publish(&mut state, super::landmarks::Change::MayGrow);
                }
                Ok(())
            }
            Err(error) => {
                state.obstacles.live.insert(id.0, old);
                Err(error)
            }
        }
    }

    /// Removes obstacle `id`; the tiles it was near are carved again without it (a tile
    /// left with no obstacle gets back the mesh it was added as, polygon for polygon).
    /// References to the pieces it left and to the polygons given back whole made before
    /// are stale; the others still resolve (see [`crate::PolyRef`]).
    ///
    /// # Errors
    /// [`MeshError::StaleObstacle`] when `id` names no obstacle of the world; otherwise
    /// as [`World::add_obstacle`]. The world is unchanged.
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::{Vec2, Vec3}, MeshError, MeshOptions, NavMesh, Obstacle, World, WorldOptions};
    ///
    /// let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// let room = NavMesh::from_polygons(&[v(0.0, 0.0), v(10.0, 0.0), v(10.0, 10.0), v(0.0, 10.0)], &[0, 1, 2, 3], &[4], &MeshOptions::default())?;
    /// let world = World::new(&WorldOptions::default())?;
    /// world.add_tile(&room)?;
    /// let id = world.add_obstacle(&Obstacle::circle(Vec2::new(5.0, 5.0), 1.0)?)?;
    /// assert!(world.snapshot().polygon_count() > 1);
    /// world.remove_obstacle(id)?;
    /// assert_eq!((world.snapshot().polygon_count(), world.obstacle_count()), (1, 0));
    /// assert_eq!(world.remove_obstacle(id), Err(MeshError::StaleObstacle { id: id.0 }));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn remove_obstacle(&self, id: ObstacleId) -> Result<(), MeshError> {
        let mut state = self.lock();
        let Some(old) = state.obstacles.live.remove(&id.0) else {
            return Err(MeshError::StaleObstacle { id: id.0 });
        };
        let slots = slots_near(&state, &[&old]);
        match recarve(&mut state, &slots, &[&old]) {
            Ok(changed) => {
                if changed {
                    self.publish(&mut state, super::landmarks::Change::MayGrow);
                }
                Ok(())
            }
            Err(error) => {
                state.obstacles.live.insert(id.0, old);
                Err(error)
            }
        }
    }

    /// The number of obstacles in the world.
    #[must_use]
    pub fn obstacle_count(&self) -> usize {
        self.lock().obstacles.live.len()
    }

    /// Obstacle `id` as it was last given.
    ///
    /// # Errors
    /// [`MeshError::StaleObstacle`] when `id` names no obstacle of the world.
    pub fn obstacle(&self, id: ObstacleId) -> Result<Obstacle, MeshError> {
        self.lock()
            .obstacles
            .live
            .get(&id.0)
            .cloned()
            .ok_or(MeshError::StaleObstacle { id: id.0 })
    }
}
