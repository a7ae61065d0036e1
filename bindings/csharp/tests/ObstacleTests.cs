// SPDX-License-Identifier: MIT
//
// Obstacles of a world from C#: a wall across a corridor blocks the way and removing it
// gives the polygons back, a polygon moved, bad shapes and stale references named.

using System;
using Navstar;

internal static unsafe partial class NavstarTests
{
    private static void TestObstacles()
    {
        var cells = new byte[40];
        for (int i = 0; i < cells.Length; i++)
        {
            cells[i] = 1;
        }
        using (NavstarMesh corridor = NavstarMesh.CreateFromGrid(cells, 10, 4, 1, V(0, 0, 0)))
        using (NavstarWorld world = NavstarWorld.Create())
        {
            world.AddTile(corridor);
            int before;
            using (NavstarMesh s = world.Snapshot())
            {
                before = s.PolygonCount;
            }
            ObstacleRef wall = world.AddObstacle(Obstacle.Box(5, 2, 0.5f, 3));
            Check(wall.Id == 1 && world.ObstacleCount == 1, "one obstacle, number 1");
            using (NavstarMesh walled = world.Snapshot())
            using (NavstarQuery query = walled.CreateQuery())
            {
                Check(walled.PolygonCount > before, "the corridor is cut");
                var buffer = new Vector3[16];
                int count;
                ExpectStatus(query.FindPath(V(1, 0, 2), V(9, 0, 2), buffer, out count), Status.PartialPath,
                             "the wall blocks the way");
                Check(count > 0 && Math.Abs(buffer[count - 1].X - 4.5f) < 1e-4f, "the path ends against the wall at x = 4.5");
            }
            world.MoveObstacle(wall, Obstacle.Polygon(new float[] { 4, 1, 5, 3, 6, 1 }).WithHeightRange(-1, 1));
            using (NavstarMesh moved = world.Snapshot())
            using (NavstarQuery query = moved.CreateQuery())
            {
                var buffer = new Vector3[16];
                int count;
                ExpectStatus(query.FindPath(V(1, 0, 2), V(9, 0, 2), buffer, out count), Status.Ok, "round the triangle");
                Check(count > 2, "the path bends round the triangle");
            }
            ObstacleRef refused;
            ExpectError(world.TryAddObstacle(Obstacle.Polygon(new float[] { 0, 0, 2, 0, 1, 0.5f, 1, 2 }), out refused),
                        Status.ErrorInvalidArgument, "convex", "a dart is not convex");
            Check(refused.Equals(default(ObstacleRef)), "the out reference is zeroed after an error");
            ExpectError(world.TryAddObstacle(Obstacle.Circle(1, 1, float.NaN), out refused), Status.ErrorInvalidArgument,
                        "radius", "a NaN radius");
            ExpectError(world.TryAddObstacle(Obstacle.Polygon(new float[] { 0, 0, 1, 0 }), out refused),
                        Status.ErrorInvalidArgument, "point_count", "two points");
            ExpectError(world.TryAddObstacle(Obstacle.Circle(1, 1, 1).WithHeightRange(2, 1), out refused),
                        Status.ErrorInvalidArgument, "bottom", "bottom above top");
            ExpectThrows(() => world.AddObstacle(Obstacle.Box(1, 1, 0, 1)), Status.ErrorInvalidArgument, "half_extents",
                         "AddObstacle throws");
            world.RemoveObstacle(wall);
            ExpectError(world.TryRemoveObstacle(wall), Status.ErrorStaleReference, "obstacle 1", "removed twice");
            ExpectThrows(() => world.MoveObstacle(wall, Obstacle.Circle(1, 1, 1)), Status.ErrorStaleReference, "obstacle",
                         "MoveObstacle throws for a removed one");
            using (NavstarMesh restored = world.Snapshot())
            {
                Check(restored.PolygonCount == before && world.ObstacleCount == 0, "the polygons are back");
            }
        }
    }
}
