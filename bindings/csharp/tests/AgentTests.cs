// SPDX-License-Identifier: MIT
//
// The agent queries from C#: moving along the surface, the distance to walls and random
// points, on the U mesh of NavstarTests (unit squares 0, 1, 2 along z 0..1, 3 and 4
// above 0 and 2, 5 and 6 above them, and the island 7 at x 5..6, z 0..1).

using System;
using Navstar;

internal static unsafe partial class NavstarTests
{
    private static void TestCorridor()
    {
        using (NavstarMesh mesh = MakeUMesh())
        using (NavstarQuery query = NavstarQuery.Create(mesh))
        {
            // Round the U: 5 3 0 1 2 4 6, from (0.5, 2.5) to (2.5, 2.5).
            NavstarCorridor corridor;
            ExpectStatus(NavstarCorridor.TryCreate(mesh, new[] { 5, 3, 0, 1, 2, 4, 6 }, V(0.5f, 0, 2.5f),
                                                   V(2.5f, 0, 2.5f), out corridor),
                         Status.Ok, "corridor round the U");
            using (corridor)
            {
                var points = new Vector3[8];
                var flags = new CornerFlags[8];
                int count;
                ExpectStatus(corridor.GetCorners(points, flags, out count), Status.Ok, "corners");
                Check(count == 3 && Near(points[0], V(1, 0, 1)) && Near(points[1], V(2, 0, 1)) &&
                      Near(points[2], V(2.5f, 0, 2.5f)) && flags[2] == CornerFlags.End && flags[0] == 0,
                      "the corners of the U, the target flagged End");
                var one = new Vector3[1];
                ExpectStatus(corridor.GetCorners(one, null, out count), Status.BufferTooSmall, "one corner's room");
                Check(count == 3 && Near(one[0], V(1, 0, 1)), "the first corner and the full count");
                bool on;
                ExpectStatus(corridor.MovePosition(V(1, 0, 1), out on), Status.Ok, "a step to the first corner");
                Vector3 position, target;
                ExpectStatus(corridor.GetPosition(out position, out target), Status.Ok, "position");
                Check(on && Near(position, V(1, 0, 1)) && Near(target, V(2.5f, 0, 2.5f)), "at the first corner");
                // Square 4 closes: the target is cut off.
                mesh.SetPolygonFlags(4, 0);
                bool valid;
                ExpectStatus(corridor.IsValid(16, out valid), Status.Ok, "is valid");
                Check(!valid, "no longer valid");
                CorridorRepair outcome;
                int kept;
                ExpectStatus(corridor.Repair(query, out outcome, out kept), Status.Ok, "repair");
                Check(outcome == CorridorRepair.CutOff && kept >= 1, "the target is cut off");
                ExpectStatus(corridor.IsValid(16, out valid), Status.Ok, "is valid after the repair");
                Check(valid, "valid after the repair");
                var polygons = new int[16];
                ExpectStatus(corridor.GetPolygons(polygons, out count), Status.Ok, "polygons");
                Check(count >= 1 && Array.IndexOf(polygons, 4, 0, count) < 0, "square 4 is not on the corridor");
            }
            ExpectError(NavstarCorridor.TryCreate(mesh, new[] { 0, 99 }, V(0.5f, 0, 0.5f), V(1.5f, 0, 0.5f),
                                                  out corridor),
                        Status.ErrorInvalidArgument, "polygons[1] = 99", "a polygon out of range");
            Check(corridor == null, "no corridor after an error");
        }
    }

    private static void TestAgents()
    {
        using (NavstarMesh mesh = MakeUMesh())
        using (NavstarQuery query = NavstarQuery.Create(mesh))
        {
            // From square 0 up through square 3 into its wall x = 1 at z = 1.15, then along it.
            SurfaceMove move;
            int count;
            var visited = new int[8];
            ExpectStatus(mesh.MoveAlongSurface(0, V(0.5f, 0, 0.5f), V(1.5f, 0, 1.8f), out move, visited, out count),
                         Status.Ok, "move along the surface");
            Check(Near(move.Point, V(1, 0, 1.8f)) && move.Polygon == 3 && move.Walls == 1,
                  "slides along the wall x = 1 to (1, 0, 1.8) in square 3");
            Check(count == 2 && visited[0] == 0 && visited[1] == 3, "walked through squares 0 and 3");
            var one = new int[1];
            ExpectStatus(mesh.MoveAlongSurface(0, V(0.5f, 0, 0.5f), V(1.5f, 0, 1.8f), out move, one, out count),
                         Status.BufferTooSmall, "one slot for two polygons");
            Check(one[0] == 0 && count == 2 && move.Polygon == 3, "the first polygon, the full count, the whole move");
            ExpectStatus(mesh.MoveAlongSurface(-1, V(0.5f, 2, 0.5f), V(1.5f, 0, 1.8f), out move, null, out count),
                         Status.Ok, "-1 snaps the start; no buffer");
            Check(move.Polygon == 3 && count == 2, "the same move from a snapped start");
            ExpectError(mesh.MoveAlongSurface(99, V(0.5f, 0, 0.5f), V(1, 0, 1), out move, visited, out count),
                        Status.ErrorInvalidArgument, "start_polygon 99", "a start polygon out of range");
            QueryFilter refusing = QueryFilter.Default;
            refusing.IncludeFlags = 2;
            ExpectError(mesh.MoveAlongSurface(0, V(0.5f, 0, 0.5f), V(1, 0, 1), out move, visited, out count, refusing),
                        Status.ErrorInvalidArgument, "refused", "a refused start polygon");

            WallDistance wall;
            ExpectStatus(query.DistanceToWall(V(0.3f, 0, 1.5f), 5, out wall), Status.Ok, "distance to wall");
            Check(wall.Found && Math.Abs(wall.Distance - 0.3f) < 1e-6f && Near(wall.Point, V(0, 0, 1.5f)) &&
                  Near(wall.Normal, V(1, 0, 0)) && wall.Polygon == 3,
                  "the wall x = 0 is 0.3 away, normal +x, of square 3");
            ExpectStatus(query.DistanceToWall(V(0.3f, 0, 1.5f), 0.1f, out wall), Status.Ok, "no wall within 0.1");
            Check(!wall.Found && wall.Polygon == -1 && float.IsPositiveInfinity(wall.Distance), "none found");
            ExpectError(query.DistanceToWall(V(0.3f, 0, 1.5f), float.NaN, out wall), Status.ErrorInvalidArgument,
                        "radius", "a NaN radius");

            // A disc of radius 0.25: its nearest point keeps 0.25 from the wall z = 0, and
            // walking north from square 0 it stops 0.25 before the wall z = 3 of square 5.
            Vector3 spot;
            int holder;
            float away;
            ExpectStatus(mesh.NearestPointForAgent(V(0.5f, 1, 0.1f), 5, 0.25f, out spot, out holder, out away),
                         Status.Ok, "nearest point for an agent");
            Check(Near(spot, V(0.5f, 0, 0.25f)) && holder == 0 && Math.Abs(away - (float)Math.Sqrt(1.0225)) < 1e-5f,
                  "(0.5, 0, 0.25) in square 0");
            ExpectStatus(mesh.NearestPoint(V(0.5f, 1, 0.1f), 5, out spot, out holder, out away), Status.Ok,
                         "nearest point of a point");
            Check(Near(spot, V(0.5f, 0, 0.1f)), "radius 0 is the point below");
            MeshRaycastHit ray;
            Check(mesh.RaycastForAgent(V(0.5f, 0, 0.5f), V(0.5f, 0, 4), 0.25f, out ray) && Near(ray.Point, V(0.5f, 0, 2.75f)) &&
                  Near(ray.Normal, V(0, 0, -1)) && ray.Polygon == 5, "a disc of 0.25 stops at z = 2.75 in square 5");
            ExpectStatus(mesh.TryRaycastForAgent(V(0.5f, 0, 0.5f), V(0.5f, 0, 1.5f), 0.25f, out ray), Status.Ok,
                         "a short walk for an agent");
            Check(!ray.Hit && Math.Abs(ray.T - 1) < 1e-6f, "nothing hit before z = 1.5");
            ExpectError(mesh.NearestPointForAgent(V(0.5f, 0, 0.5f), 5, float.NaN, out spot, out holder, out away),
                        Status.ErrorInvalidArgument, "agent_radius", "a NaN agent radius");
            Check(holder == -1, "no polygon on errors");
            ExpectError(mesh.TryRaycastForAgent(V(0.5f, 0, 0.5f), V(1, 0, 1), -1, out ray),
                        Status.ErrorInvalidArgument, "agent_radius", "a negative agent radius");
            ExpectError(mesh.NearestPointForAgent(V(0.5f, 0, 0.5f), 5, 2, out spot, out holder, out away),
                        Status.ErrorInvalidArgument, "agent_radius", "a radius no point of the U fits");
            ExpectThrows(() => mesh.RaycastForAgent(V(0.5f, 0, 0.5f), V(1, 0, 1), float.PositiveInfinity, out ray),
                         Status.ErrorInvalidArgument, "agent_radius", "RaycastForAgent throws for an infinite radius");

            ulong first = 7, second = 7;
            Vector3 a, b;
            int polygon, other;
            ExpectStatus(mesh.RandomPoint(ref first, out a, out polygon), Status.Ok, "random point");
            ExpectStatus(mesh.RandomPoint(ref second, out b, out other), Status.Ok, "random point again");
            Check(Near(a, b) && polygon == other && first == second && first != 7 && polygon >= 0 && polygon < 8,
                  "a seed gives the same point, and the state moves on");
            bool onIsland = true;
            for (int i = 0; i < 20; i++)
            {
                Status status = query.RandomPointAround(V(5.5f, 0, 0.5f), 0.1f, ref first, out a, out polygon);
                onIsland &= status == Status.Ok && polygon == 7 && a.X >= 5 && a.X <= 6 && a.Z >= 0 && a.Z <= 1;
            }
            Check(onIsland, "random points around the island's centre stay on the island");
            ulong kept = first;
            ExpectError(mesh.RandomPoint(ref first, out a, out polygon, refusing), Status.ErrorNotOnMesh, "no polygon",
                        "nothing admitted");
            Check(first == kept && polygon == -1, "a failed call leaves the state");
        }

        // A disc of radius 1 in a 10 x 10 room: it stops 1 short of a wall and slides, the
        // eroded wall is 4 from the centre, random points stay in [1, 9]^2.
        var room = new[] { V(0, 0, 0), V(10, 0, 0), V(10, 0, 10), V(0, 0, 10) };
        using (NavstarMesh mesh = NavstarMesh.Create(room, new[] { 0, 1, 2, 3 }, new[] { 4 }))
        using (NavstarQuery query = NavstarQuery.Create(mesh))
        {
            SurfaceMove move;
            int count;
            var visited = new int[4];
            ExpectStatus(mesh.MoveAlongSurfaceForAgent(0, V(5, 0, 5), V(7, 0, 12), 1, out move, visited, out count),
                         Status.Ok, "move along the surface for an agent");
            Check(Near(move.Point, V(7, 0, 9)) && move.Polygon == 0 && move.Walls == 1 && count == 1 && visited[0] == 0,
                  "a disc of 1 stops at z = 9 and slides to x = 7");
            ExpectError(mesh.MoveAlongSurfaceForAgent(0, V(5, 0, 5), V(7, 0, 12), -1, out move, visited, out count),
                        Status.ErrorInvalidArgument, "agent_radius", "a negative agent radius");
            WallDistance wall;
            ExpectStatus(query.DistanceToWallForAgent(V(5, 0, 5), float.PositiveInfinity, 1, out wall), Status.Ok,
                         "distance to the wall for an agent");
            Check(wall.Found && Math.Abs(wall.Distance - 4) < 1e-4f && wall.Polygon == 0, "4 from the centre");
            ExpectError(query.DistanceToWallForAgent(V(5, 0, 5), 1, float.NaN, out wall), Status.ErrorInvalidArgument,
                        "agent_radius", "a NaN agent radius");
            ulong state = 3;
            Vector3 p;
            int polygon;
            bool inside = true;
            for (int i = 0; i < 50; i++)
            {
                Status status = i % 2 == 0
                    ? mesh.RandomPointForAgent(1, ref state, out p, out polygon)
                    : query.RandomPointAroundForAgent(V(0, 0, 0), float.PositiveInfinity, 1, ref state, out p,
                                                      out polygon);
                inside &= status == Status.Ok && polygon == 0 && p.X >= 1 && p.X <= 9 && p.Z >= 1 && p.Z <= 9;
            }
            Check(inside, "random points for a disc of 1 stay in [1, 9]^2");
            ulong kept = state;
            ExpectError(mesh.RandomPointForAgent(6, ref state, out p, out polygon), Status.ErrorInvalidArgument,
                        "agent_radius", "a disc wider than the room");
            Check(state == kept && polygon == -1, "a failed call leaves the state");
            NavstarCorridor corridor;
            ExpectStatus(NavstarCorridor.TryCreate(mesh, new[] { 0 }, V(5, 0, 5), V(5, 0, 5), out corridor), Status.Ok,
                         "room: corridor");
            using (corridor)
            {
                ExpectError(corridor.SetAgentRadius(float.NaN), Status.ErrorInvalidArgument, "agent_radius",
                            "a corridor refuses a NaN radius");
                ExpectStatus(corridor.SetAgentRadius(1), Status.Ok, "corridor SetAgentRadius");
                bool on;
                ExpectStatus(corridor.MovePosition(V(5, 0, 12), out on), Status.Ok, "corridor move for a disc");
                Vector3 here, there;
                ExpectStatus(corridor.GetPosition(out here, out there), Status.Ok, "corridor position");
                Check(Near(here, V(5, 0, 9)), "the corridor's disc stops 1 short of the wall z = 10");
            }
        }
    }

    private static void TestSliced()
    {
        using (NavstarMesh mesh = MakeUMesh())
        using (NavstarQuery query = NavstarQuery.Create(mesh))
        {
            Vector3 from = V(0.5f, 0, 2.5f), to = V(2.5f, 0, 2.5f);
            // The funnel mode: its search round the U takes several expansions (the
            // default, auto, runs the exact mode here, with fewer).
            PathOptions funnel = PathOptions.Default;
            funnel.Mode = PathMode.Funnel;
            var whole = new Vector3[16];
            int wholeCount;
            ExpectStatus(query.FindPath(from, to, funnel, whole, out wholeCount), Status.Ok, "one-shot path round the U");
            bool done;
            ExpectStatus(query.BeginPath(from, to, out done, funnel), Status.Ok, "begin path");
            Check(!done, "the U needs a search");
            SliceProgress progress;
            int slices = 0, expansions = 0;
            do
            {
                ExpectStatus(query.AdvancePath(1, out progress), Status.Ok, "advance path");
                Check(progress.Expansions <= 1 && !progress.FlagsChanged, "at most one expansion per slice");
                expansions += progress.Expansions;
                slices++;
            } while (!progress.Done && slices < 1000);
            Check(slices > 2 && expansions > 2, "several slices");
            var points = new Vector3[16];
            int count;
            ExpectStatus(query.FinishPath(points, out count), Status.Ok, "finish path");
            bool same = count == wholeCount;
            for (int i = 0; same && i < count; i++)
            {
                same = points[i].X == whole[i].X && points[i].Y == whole[i].Y && points[i].Z == whole[i].Z;
            }
            Check(same, "the sliced path equals the one-shot path bit for bit");

            ExpectStatus(query.BeginPath(from, to, out done, funnel), Status.Ok, "begin path again");
            ExpectStatus(query.AdvancePath(1, out progress), Status.Ok, "one slice");
            ExpectStatus(query.FinishPath(points, out count), Status.PartialPath, "finish early");
            Check(count >= 2 && Near(points[0], from), "the partial path starts at the start");

            ExpectStatus(query.BeginPath(from, to, out done, funnel), Status.Ok, "begin path, short buffer");
            ExpectStatus(query.AdvancePath(1000, out progress), Status.Ok, "one big slice");
            Check(progress.Done, "done in one big slice");
            var two = new Vector3[2];
            ExpectStatus(query.FinishPath(two, out count), Status.BufferTooSmall, "finish into 2 points");
            Check(count == wholeCount && Near(two[0], from), "the prefix and the whole count");

            ExpectError(query.AdvancePath(5, out progress), Status.ErrorInvalidArgument, "begin_path",
                        "advance with nothing begun");
            ExpectError(query.AdvancePath(0, out progress), Status.ErrorInvalidArgument, "max_expansions",
                        "advance by 0");
            ExpectStatus(query.BeginPath(from, to, out done, funnel), Status.Ok, "begin path to cancel");
            Check(query.CancelPath() && !query.CancelPath(), "cancel once");
            ExpectError(query.FinishPath(points, out count), Status.ErrorInvalidArgument, "begin_path",
                        "finish after cancel");
        }
    }
}
