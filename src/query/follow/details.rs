//! The next corners of a corridor with what happens at each (the details of a path's
//! corners: area changes, the end), pulled as a path query pulls its corridor.

use glam::Vec3;

use super::PathCorridor;
use crate::corridor::{CornerDetail, CorridorStep, LAST_STEP, PullRequest, pull_corridor};
use crate::filter::QueryFilter;
use crate::mesh::CORNER_REACH;
use crate::query::PathOptions;

impl PathCorridor {
    /// The next corners (at most `max`) of the way from the position to the target
    /// through the corridor, with their details, as [`crate::Query::find_path`] gives
    /// them for a path through the same polygons: the cheapest way under
    /// `options.filter`'s area costs (the shortest when areas cost the same), with a
    /// corner wherever the way passes into a polygon of another area
    /// ([`CornerFlags::AREA_CHANGE`](crate::CornerFlags::AREA_CHANGE)) when
    /// `options.split_at_area_changes`, and [`CornerFlags::END`](crate::CornerFlags::END)
    /// on the target. The position itself is not listed, nor corners the agent has
    /// reached up to rounding (as in [`PathCorridor::corners`]). A corridor follows no
    /// off-mesh link ([`PathCorridor::set_corridor`] takes one stretch at a time), so no
    /// corner has a link flag. The two slices have the same length; empty only when the
    /// agent stands on the target (up to rounding). With an agent radius
    /// ([`PathCorridor::set_agent_radius`]) the way is that of [`PathCorridor::corners`]
    /// (the disc's centre through the part of the corridor where it fits), pulled as
    /// here under the area costs of `options.filter` (its flags are not read: the eroded
    /// copy's pieces all count as admitted; `options.agent_radius` is not read either).
    ///
    /// Allocates nothing once its scratch has grown to the corridor's length.
    ///
    /// # Example
    /// ```
    /// use navstar::{glam::Vec3, CornerFlags, MeshInput, MeshOptions, NavMesh, PathCorridor, PathOptions};
    ///
    /// // An L of three unit squares (y up): 1 = [1,2]x[0,1], 0 = [0,1]x[0,1], 2 = [0,1]x[1,2],
    /// // square 2 of area 3.
    /// let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
    /// let vertices = [v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0), v(0.0, 1.0), v(1.0, 1.0), v(2.0, 1.0), v(0.0, 2.0), v(1.0, 2.0)];
    /// let indices = [0, 1, 4, 3, /**/ 1, 2, 5, 4, /**/ 3, 4, 7, 6];
    /// let input = MeshInput::new(&vertices, &indices).with_polygon_sizes(&[4, 4, 4]).with_areas(&[0, 0, 3]);
    /// let mesh = NavMesh::from_input(&input, &MeshOptions::default())?;
    /// let (start, goal) = (Vec3::new(1.8, 0.0, 0.5), Vec3::new(0.5, 0.0, 1.8));
    /// let mut corridor = PathCorridor::new(&mesh, 1, start)?;
    /// corridor.set_corridor(goal, &[1, 0, 2])?;
    /// let options = PathOptions::default().with_split_at_area_changes(true);
    /// let (corners, details) = corridor.corners_with_details(8, &options);
    /// // Round the inner corner (1, 1), which is also where square 2 (area 3) begins.
    /// assert_eq!(corners, [Vec3::new(1.0, 0.0, 1.0), goal]);
    /// assert!(details[0].flags.contains(CornerFlags::AREA_CHANGE));
    /// assert_eq!(details[0].area, 3);
    /// assert_eq!(details[1].flags, CornerFlags::END);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn corners_with_details(
        &mut self,
        max: usize,
        options: &PathOptions,
    ) -> (&[Vec3], &[CornerDetail]) {
        // With an agent radius: through the eroded pieces of the corridor's polygons
        // (their areas are the originals'; every piece is admitted), as the corners.
        let agent = self.chain_for_agent();
        let admit_all = QueryFilter {
            include_flags: u32::MAX,
            exclude_flags: 0,
            ..options.filter.clone()
        };
        let (mesh, chain, start, target, filter) = match &agent {
            Some((eroded, from, to)) => (
                eroded.mesh.data(),
                &self.agent.chain[..],
                *from,
                *to,
                &admit_all,
            ),
            None => (
                self.mesh.data(),
                &self.polygons[..],
                self.position,
                self.target,
                &options.filter,
            ),
        };
        self.steps.clear();
        for (i, &polygon) in chain.iter().enumerate() {
            let exit = match chain.get(i + 1) {
                None => LAST_STEP,
                Some(&next) => {
                    mesh.corner_range(polygon)
                        .find(|&slot| mesh.neighbours[slot] == next)
                        .expect("the corridor is a chain of neighbours") as u64
                }
            };
            self.steps.push(CorridorStep { polygon, exit });
        }
        let request = PullRequest {
            start,
            target,
            filter,
            split_at_area_changes: options.split_at_area_changes,
            trace: true,
        };
        pull_corridor(mesh, &self.steps, &request, &mut self.pull, &mut self.path);
        let up = mesh.up;
        let here = up.ground(self.position);
        let reached = CORNER_REACH * here.abs().max_element().max(1.0);
        let corners = &self.path.corners;
        // The first corner is the position; corners reached up to rounding are skipped.
        let first = (1..corners.len())
            .find(|&k| up.ground(corners[k]).distance(here) > reached)
            .unwrap_or(corners.len());
        let end = corners.len().min(first.saturating_add(max));
        (&corners[first..end], &self.path.details[first..end])
    }
}
