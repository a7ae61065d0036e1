//! The doors of a simulation: a few polygons of narrow passages whose flags are cleared
//! (closed: the default filter refuses them) and restored (open) on a schedule.
//!
//! Dependency-free apart from `navstar`, so that `examples/simulate.rs` can include it.

use navstar::{NavMesh, SplitMix64};

/// Doors, their schedule and whether each is closed now.
///
/// A door wants to be closed during the second half of each period of `period` frames
/// (shifted by its own phase). It closes only when no agent stands in it: a real door
/// waits for the doorway to clear. It opens as soon as its schedule says so.
pub struct Doors {
    /// The door polygons.
    polygons: Vec<u32>,
    /// Their flags when open (as the mesh had them).
    open_flags: Vec<u32>,
    /// Their phases, in frames (0 .. 2 * period).
    phases: Vec<u32>,
    /// Whether each is closed now.
    closed: Vec<bool>,
    /// Frames per half cycle (open, then closed).
    period: u32,
}

impl Doors {
    /// Chooses `count` doors of `mesh` with `random`: polygons with exactly two
    /// neighbours (a passage), the narrowest quarter of them by their wider portal
    /// (at least `count` candidates), `count` picked from those. Fewer doors when the
    /// mesh has fewer such polygons. The same seed gives the same doors.
    pub fn choose(mesh: &NavMesh, count: usize, period: u32, random: &mut SplitMix64) -> Doors {
        let mut candidates: Vec<(f32, u32)> = mesh
            .polygon_ids()
            .filter_map(|p| passage_width(mesh, p).map(|w| (w, p)))
            .collect();
        candidates.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let keep = (candidates.len() / 4).max(count).min(candidates.len());
        candidates.truncate(keep);
        // A partial Fisher-Yates shuffle: the first `count` are the doors.
        let count = count.min(candidates.len());
        for i in 0..count {
            let left = (candidates.len() - i) as u64;
            let j = i + (random.next_u64() % left) as usize;
            candidates.swap(i, j);
        }
        let polygons: Vec<u32> = candidates[..count].iter().map(|&(_, p)| p).collect();
        let period = period.max(1);
        Doors {
            open_flags: polygons.iter().map(|&p| mesh.polygon_flags(p)).collect(),
            phases: polygons
                .iter()
                .map(|_| (random.next_u64() % u64::from(2 * period)) as u32)
                .collect(),
            closed: vec![false; polygons.len()],
            polygons,
            period,
        }
    }

    /// The door polygons.
    pub fn polygons(&self) -> &[u32] {
        &self.polygons
    }

    /// Whether door `polygon` is closed now (false for a polygon that is no door).
    pub fn is_closed(&self, polygon: u32) -> bool {
        self.polygons
            .iter()
            .zip(&self.closed)
            .any(|(&p, &closed)| p == polygon && closed)
    }

    /// Opens and closes the doors for `frame`: a door whose schedule says closed is closed
    /// unless `occupied(door)`; one whose schedule says open is opened. Returns how many
    /// doors changed.
    ///
    /// # Errors
    /// A message if the mesh refuses a flag change (cannot happen for its own polygons).
    pub fn update(
        &mut self,
        mesh: &NavMesh,
        frame: u32,
        occupied: impl Fn(u32) -> bool,
    ) -> Result<u32, String> {
        let mut changes = 0;
        for i in 0..self.polygons.len() {
            let polygon = self.polygons[i];
            let want_closed = (frame + self.phases[i]) / self.period % 2 == 1;
            if want_closed == self.closed[i] || (want_closed && occupied(polygon)) {
                continue;
            }
            let flags = if want_closed { 0 } else { self.open_flags[i] };
            mesh.set_polygon_flags(polygon, flags)
                .map_err(|e| format!("door {polygon}: {e}"))?;
            self.closed[i] = want_closed;
            changes += 1;
        }
        Ok(changes)
    }

    /// Opens every door (the mesh's flags as they were).
    pub fn open_all(&mut self, mesh: &NavMesh) {
        for (i, &polygon) in self.polygons.iter().enumerate() {
            // The polygon is the mesh's own: the change cannot fail.
            let _ = mesh.set_polygon_flags(polygon, self.open_flags[i]);
            self.closed[i] = false;
        }
    }
}

/// For a polygon with exactly two neighbours, the ground length of its wider portal;
/// `None` for other polygons.
fn passage_width(mesh: &NavMesh, polygon: u32) -> Option<f32> {
    let up = mesh.up_axis();
    let corners = mesh.polygon_vertices(polygon);
    let mut widths = mesh
        .polygon_neighbours(polygon)
        .enumerate()
        .filter(|(_, n)| n.is_some())
        .map(|(slot, _)| {
            let a = up.ground(mesh.vertex(corners[slot]));
            let b = up.ground(mesh.vertex(corners[(slot + 1) % corners.len()]));
            a.distance(b)
        });
    let (first, second) = (widths.next()?, widths.next()?);
    if widths.next().is_some() {
        return None;
    }
    Some(first.max(second))
}

#[cfg(test)]
mod tests {
    use super::*;
    use navstar::DEFAULT_FLAGS;

    /// Four unit squares in a row along x (y up): 0, 1, 2, 3; 1 and 2 are passages.
    fn row() -> NavMesh {
        super::super::test_meshes::row_then_up(4, 0)
    }

    #[test]
    fn doors_are_passages_chosen_by_the_seed() {
        let mesh = row();
        let doors = Doors::choose(&mesh, 1, 5, &mut SplitMix64::new(9));
        assert!(doors.polygons() == [1] || doors.polygons() == [2]);
        let again = Doors::choose(&mesh, 1, 5, &mut SplitMix64::new(9));
        assert_eq!(doors.polygons(), again.polygons());
        // Asking for more doors than passages gives the passages.
        let mut all = Doors::choose(&mesh, 5, 5, &mut SplitMix64::new(1))
            .polygons()
            .to_vec();
        all.sort();
        assert_eq!(all, [1, 2]);
    }

    #[test]
    fn a_door_closes_on_schedule_only_when_empty_and_opens_again() {
        let mesh = row();
        let mut doors = Doors::choose(&mesh, 1, 3, &mut SplitMix64::new(4));
        let door = doors.polygons()[0];
        // Find a frame where the schedule says closed.
        let closed_frame = (0..6)
            .find(|&f| (f + doors.phases[0]) / 3 % 2 == 1)
            .unwrap();
        assert_eq!(doors.update(&mesh, closed_frame, |p| p == door).unwrap(), 0);
        assert_eq!(
            mesh.polygon_flags(door),
            DEFAULT_FLAGS,
            "occupied: stays open"
        );
        assert_eq!(doors.update(&mesh, closed_frame, |_| false).unwrap(), 1);
        assert_eq!(mesh.polygon_flags(door), 0);
        assert!(doors.is_closed(door));
        // Three frames later the schedule says open.
        assert_eq!(doors.update(&mesh, closed_frame + 3, |_| true).unwrap(), 1);
        assert_eq!(mesh.polygon_flags(door), DEFAULT_FLAGS);
        doors.update(&mesh, closed_frame, |_| false).unwrap();
        doors.open_all(&mesh);
        assert_eq!(mesh.polygon_flags(door), DEFAULT_FLAGS);
        assert!(!doors.is_closed(door));
    }
}
