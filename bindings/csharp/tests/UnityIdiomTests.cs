// SPDX-License-Identifier: MIT
//
// The Unity idioms, compiled only with UNITY_5_3_OR_NEWER (against UnityEngineStub.cs):
// a UnityEngine.Vector3 twin for every method with Navstar.Vector3 in its signature (found
// by reflection), each twin's answer on the U mesh of NavstarTests, areas imported from
// NavMeshTriangulation.areas, and NavstarNavMesh's CalculatePath, SamplePosition, Raycast,
// FindClosestEdge and area costs with Unity's answers.

#if UNITY_5_3_OR_NEWER
using System;
using System.Collections.Generic;
using System.Reflection;
using Navstar;
using UVector3 = UnityEngine.Vector3;

internal static class UnityIdiomTests
{
    internal static void Run()
    {
        CheckTwins();
        CheckTwinAnswers();
        CheckAreaImport();
        CheckNavMeshIdioms();
    }

    private static UVector3 U(float x, float y, float z)
    {
        return new UVector3(x, y, z);
    }

    private static bool Near(UVector3 a, float x, float y, float z)
    {
        return Math.Abs(a.x - x) <= 1e-4f && Math.Abs(a.y - y) <= 1e-4f && Math.Abs(a.z - z) <= 1e-4f;
    }

    // Navstar.Vector3 (and arrays, by-ref forms) replaced by UnityEngine.Vector3.
    private static Type Twin(Type type)
    {
        if (type.IsByRef)
        {
            return Twin(type.GetElementType()).MakeByRefType();
        }
        if (type.IsArray)
        {
            return Twin(type.GetElementType()).MakeArrayType();
        }
        return type == typeof(Navstar.Vector3) ? typeof(UVector3) : type;
    }

    private static bool Mentions(Type type)
    {
        return Twin(type) != type;
    }

    // Every public method of the query classes with a Navstar.Vector3 in its parameters has
    // a twin of the same name with UnityEngine.Vector3 there and the matching return type.
    // Methods with Navstar.Vector3 only in the return type (GetVertices, GetPolygonPoints)
    // cannot overload on it: their twin is the Try form filling a UnityEngine.Vector3[].
    private static void CheckTwins()
    {
        var missing = new List<string>();
        int checkedCount = 0;
        foreach (Type type in new[] { typeof(NavstarMesh), typeof(NavstarQuery), typeof(NavstarWorld) })
        {
            const BindingFlags publicMethods =
                BindingFlags.Public | BindingFlags.Instance | BindingFlags.Static | BindingFlags.DeclaredOnly;
            foreach (MethodInfo method in type.GetMethods(publicMethods))
            {
                ParameterInfo[] parameters = method.GetParameters();
                bool inParameters = false;
                var twinTypes = new Type[parameters.Length];
                for (int i = 0; i < parameters.Length; i++)
                {
                    inParameters |= Mentions(parameters[i].ParameterType);
                    twinTypes[i] = Twin(parameters[i].ParameterType);
                }
                string name = type.Name + "." + method.Name + "(" + parameters.Length + " arguments)";
                if (inParameters)
                {
                    checkedCount++;
                    MethodInfo twin = type.GetMethod(method.Name, publicMethods, null, twinTypes, null);
                    if (twin == null || twin.ReturnType != Twin(method.ReturnType))
                    {
                        missing.Add(name);
                    }
                }
                else if (Mentions(method.ReturnType))
                {
                    checkedCount++;
                    var buffer = new List<Type>(twinTypes) { typeof(UVector3[]), typeof(int).MakeByRefType() };
                    if (type.GetMethod("Try" + method.Name, publicMethods, null, buffer.ToArray(), null) == null)
                    {
                        missing.Add(name + " (no Try" + method.Name + " into UnityEngine.Vector3[])");
                    }
                }
            }
        }
        NavstarTests.Check(checkedCount >= 30 && missing.Count == 0,
                           checkedCount + " methods with Navstar.Vector3 have a UnityEngine.Vector3 twin; missing: " +
                           string.Join(", ", missing.ToArray()));
    }

    // Each twin gives the answer of the method it mirrors, on the U mesh.
    private static void CheckTwinAnswers()
    {
        using (NavstarMesh mesh = NavstarTests.MakeUMesh())
        using (NavstarQuery query = mesh.CreateQuery())
        {
            UVector3 nearest;
            int polygon;
            float distance;
            // The sliced search with UnityEngine.Vector3 gives the one-shot path round the U.
            var whole = new UVector3[16];
            int wholeCount;
            NavstarTests.ExpectStatus(query.FindPath(U(0.5f, 0, 2.5f), U(2.5f, 0, 2.5f), PathOptions.Default,
                                                     QueryFilter.Default, whole, out wholeCount),
                                      Status.Ok, "one-shot FindPath with UnityEngine.Vector3");
            bool done;
            NavstarTests.ExpectStatus(query.BeginPath(U(0.5f, 0, 2.5f), U(2.5f, 0, 2.5f), out done), Status.Ok,
                                      "BeginPath with UnityEngine.Vector3");
            SliceProgress progress;
            int slices = 0;
            do
            {
                NavstarTests.ExpectStatus(query.AdvancePath(2, out progress), Status.Ok, "AdvancePath");
                slices++;
            } while (!progress.Done && slices < 1000);
            var sliced = new UVector3[16];
            int slicedCount;
            NavstarTests.ExpectStatus(query.FinishPath(sliced, out slicedCount), Status.Ok,
                                      "FinishPath into UnityEngine.Vector3[]");
            bool same = !done && wholeCount == slicedCount && wholeCount >= 3;
            for (int i = 0; same && i < slicedCount; i++)
            {
                same = sliced[i].x == whole[i].x && sliced[i].y == whole[i].y && sliced[i].z == whole[i].z;
            }
            NavstarTests.Check(same, "the sliced UnityEngine.Vector3 path equals the one-shot path (" + slicedCount +
                                     " corners, " + slices + " slices)");

            NavstarTests.ExpectStatus(mesh.NearestPoint(U(1.5f, 2, 0.5f), 5, out nearest, out polygon, out distance),
                                      Status.Ok, "NearestPoint with UnityEngine.Vector3");
            NavstarTests.Check(Near(nearest, 1.5f, 0, 0.5f) && polygon == 1 && Math.Abs(distance - 2) < 1e-5f,
                               "the point below, in square 1, 2 away");

            MeshRaycastHit hit;
            NavstarTests.Check(mesh.Raycast(U(0.5f, 0, 0.5f), U(0.5f, 0, 4), out hit) && Near(hit.Point, 0.5f, 0, 3) &&
                               hit.Polygon == 5, "Raycast with UnityEngine.Vector3 hits the wall z = 3 in square 5");
            NavstarTests.ExpectStatus(mesh.TryRaycast(U(0.5f, 0, 0.5f), U(2.5f, 0, 0.5f), out hit), Status.Ok,
                                      "TryRaycast with UnityEngine.Vector3");
            NavstarTests.Check(!hit.Hit && hit.Polygon == 2, "along the bottom row nothing is hit");

            var output = new float[1];
            var heights = new float[mesh.VertexCount];
            for (int i = 0; i < heights.Length; i++)
            {
                heights[i] = i;
            }
            NavstarTests.ExpectStatus(mesh.Interpolate(U(0.5f, 0, 0.5f), heights, 1, output, out polygon), Status.Ok,
                                      "Interpolate with UnityEngine.Vector3");
            NavstarTests.Check(polygon == 0 && Math.Abs(output[0] - 2.5f) < 1e-4f,
                               "the mean of vertices 0, 1, 4, 5 at the centre of square 0: " + output[0]);

            SurfaceMove move;
            int count;
            NavstarTests.ExpectStatus(
                mesh.MoveAlongSurface(0, U(0.5f, 0, 0.5f), U(1.5f, 0, 1.8f), out move, null, out count), Status.Ok,
                "MoveAlongSurface with UnityEngine.Vector3");
            UVector3 moved = move.Point;
            NavstarTests.Check(Near(moved, 1, 0, 1.8f) && move.Polygon == 3, "slides to (1, 0, 1.8) in square 3");

            ulong seed = 7, again = 7;
            UVector3 a;
            Navstar.Vector3 b;
            int other;
            mesh.RandomPoint(ref seed, out a, out polygon);
            mesh.RandomPoint(ref again, out b, out other);
            NavstarTests.Check(Near(a, b.X, b.Y, b.Z) && polygon == other && seed == again,
                               "RandomPoint with UnityEngine.Vector3: the Navstar answer for the same seed");
            query.RandomPointAround(U(5.5f, 0, 0.5f), 0.1f, ref seed, out a, out polygon);
            NavstarTests.Check(polygon == 7 && a.x >= 5 && a.x <= 6, "RandomPointAround the island stays on it");

            UVector3 min, max;
            mesh.GetBounds(out min, out max);
            NavstarTests.Check(Near(min, 0, 0, 0) && Near(max, 6, 0, 3), "GetBounds into UnityEngine.Vector3");

            WallDistance wall;
            NavstarTests.ExpectStatus(query.DistanceToWall(U(0.3f, 0, 1.5f), 5, out wall), Status.Ok,
                                      "DistanceToWall with UnityEngine.Vector3");
            NavstarTests.Check(wall.Found && Math.Abs(wall.Distance - 0.3f) < 1e-6f, "the wall x = 0 is 0.3 away");

            QueryFilter filter = QueryFilter.Default;
            var buffer = new UVector3[8];
            NavstarTests.ExpectStatus(
                query.FindPath(U(0.5f, 0, 2.5f), U(2.5f, 0, 2.5f), PathOptions.Default, filter, buffer, out count),
                Status.Ok, "filtered FindPath into UnityEngine.Vector3[]");
            NavstarTests.Check(count == 4 && Near(buffer[1], 1, 0, 1) && Near(buffer[2], 2, 0, 1),
                               "the U-turn round (1, 1) and (2, 1)");
            bool partial;
            UVector3[] path = query.FindPath(U(0.5f, 0, 2.5f), U(5.5f, 0, 0.5f), PathOptions.Default, filter, out partial);
            NavstarTests.Check(partial && path.Length >= 2, "filtered FindPath to the island as UnityEngine.Vector3[]: partial");

            int goal;
            UVector3[] goals = { U(5.5f, 0, 0.5f), U(2.5f, 0, 0.5f), U(0.5f, 0, 0.5f) };
            NavstarTests.ExpectStatus(query.FindNearestTarget(U(0.5f, 0, 2.5f), goals, buffer, out count, out goal),
                                      Status.Ok, "FindNearestTarget with UnityEngine.Vector3");
            NavstarTests.Check(goal == 2 && count == 2 && Near(buffer[1], 0.5f, 0, 0.5f), "square 0 is the nearest");

            var reached = new ReachedPolygon[8];
            NavstarTests.ExpectStatus(query.ReachablePolygons(U(0.5f, 0, 0.5f), 1.01f, reached, out count), Status.Ok,
                                      "ReachablePolygons with UnityEngine.Vector3");
            NavstarTests.Check(count == 3 && reached[0].Polygon == 0, "squares 0, 1 and 3 within 1.01");
        }

        using (NavstarMesh grid = NavstarMesh.CreateFromGrid(new byte[] { 1, 1, 0, 1 }, 2, 2, 0.5f, U(10, 1, 20)))
        {
            UVector3 min, max;
            grid.GetBounds(out min, out max);
            NavstarTests.Check(grid.PolygonCount > 0 && Near(min, 10, 1, 20) && Near(max, 11, 1, 21),
                               "CreateFromGrid at a UnityEngine.Vector3 origin");
        }
    }

    // Two triangles per unit square of a width x depth grid, corners repeated per triangle
    // (as NavMesh.CalculateTriangulation gives them), area areas[square] for both.
    private static UnityEngine.AI.NavMeshTriangulation Grid(int width, int depth, int[] squareAreas)
    {
        var vertices = new List<UVector3>();
        var indices = new List<int>();
        var areas = new List<int>();
        for (int z = 0; z < depth; z++)
        {
            for (int x = 0; x < width; x++)
            {
                UVector3[] square = { U(x, 0, z), U(x + 1, 0, z), U(x + 1, 0, z + 1), U(x, 0, z + 1) };
                foreach (int[] triangle in new[] { new[] { 0, 1, 2 }, new[] { 0, 2, 3 } })
                {
                    foreach (int corner in triangle)
                    {
                        indices.Add(vertices.Count);
                        vertices.Add(square[corner]);
                    }
                    areas.Add(squareAreas[z * width + x]);
                }
            }
        }
        return new UnityEngine.AI.NavMeshTriangulation
        {
            vertices = vertices.ToArray(), indices = indices.ToArray(), areas = areas.ToArray(),
        };
    }

    private static void CheckAreaImport()
    {
        UnityEngine.AI.NavMeshTriangulation triangulation = Grid(3, 1, new[] { 0, 31, 4 });
        using (NavstarMesh mesh = NavstarMesh.Create(triangulation))
        {
            bool right = mesh.PolygonCount == 6;
            int[] want = { 0, 0, 31, 31, 4, 4 };
            for (int triangle = 0; triangle < 6 && right; triangle++)
            {
                uint flags;
                int area;
                mesh.GetPolygonInfo(triangle, out flags, out area);
                right &= area == want[triangle] && flags == 1u << want[triangle];
            }
            NavstarTests.Check(right, "triangulation areas 0, 31, 4 become navstar areas and flags 1 << area");
        }

        triangulation.areas[3] = 32;
        try
        {
            NavstarMesh.Create(triangulation).Dispose();
            NavstarTests.Check(false, "area 32 accepted");
        }
        catch (ArgumentOutOfRangeException e)
        {
            NavstarTests.Check(e.Message.Contains("triangle 3 has area 32"), "area 32 rejected: " + e.Message);
        }
        triangulation.areas = new int[5];
        try
        {
            NavstarMesh.Create(triangulation).Dispose();
            NavstarTests.Check(false, "5 areas for 6 triangles accepted");
        }
        catch (ArgumentException e)
        {
            NavstarTests.Check(e.Message.Contains("5 entries for 6 triangles"), "a short areas array: " + e.Message);
        }
        triangulation.areas = null;
        using (NavstarMesh mesh = NavstarMesh.Create(triangulation))
        {
            uint flags;
            int area;
            mesh.GetPolygonInfo(5, out flags, out area);
            NavstarTests.Check(area == 0 && flags == 1, "no areas: area 0, flags 1");
        }

        try
        {
            UnityAreas.Filter(NavstarNavMesh.AllAreas, new[] { 1f, 0f });
            NavstarTests.Check(false, "cost 0 accepted");
        }
        catch (ArgumentException e)
        {
            NavstarTests.Check(e.Message.Contains("area 1 has cost 0"), "cost 0 rejected: " + e.Message);
        }
    }

    // A 3 x 3 grid whose centre square is area 5 (mud); every other square area 0.
    private static void CheckNavMeshIdioms()
    {
        int[] squares = { 0, 0, 0, 0, 5, 0, 0, 0, 0 };
        var path = new NavstarPath();
        NavstarTests.Check(path.status == NavstarPathStatus.PathInvalid && path.corners.Length == 0, "a new path is empty");
        using (NavstarNavMesh navMesh = NavstarNavMesh.Create(Grid(3, 3, squares)))
        {
            UVector3 west = U(0.5f, 0, 1.5f), east = U(2.5f, 0, 1.5f);
            NavstarTests.Check(navMesh.CalculatePath(west, east, NavstarNavMesh.AllAreas, path) &&
                               path.status == NavstarPathStatus.PathComplete && path.corners.Length == 2,
                               "CalculatePath across the mud at cost 1: straight, complete");

            navMesh.SetAreaCost(5, 10);
            NavstarTests.Check(navMesh.GetAreaCost(5) == 10 && navMesh.GetAreaCost(4) == 1, "SetAreaCost, GetAreaCost");
            UVector3[] corners = path.corners;
            bool found = navMesh.CalculatePath(west, east, NavstarNavMesh.AllAreas, path);
            corners = path.corners;
            bool around = corners.Length == 4 && Math.Abs(corners[1].x - 1) < 1e-4f && Math.Abs(corners[2].x - 2) < 1e-4f &&
                          Math.Abs(corners[1].z - corners[2].z) < 1e-4f &&
                          (Math.Abs(corners[1].z - 1) < 1e-4f || Math.Abs(corners[1].z - 2) < 1e-4f);
            NavstarTests.Check(found && path.status == NavstarPathStatus.PathComplete && around,
                               "mud at cost 10: round the centre square's corners");
            var few = new UVector3[2];
            NavstarTests.Check(path.GetCornersNonAlloc(few) == 2 && Near(few[1], corners[1].x, 0, corners[1].z),
                               "GetCornersNonAlloc copies what fits");
            navMesh.SetAreaCost(5, 1);

            NavstarTests.Check(navMesh.CalculatePath(west, east, ~(1 << 5), path) && path.corners.Length == 4,
                               "an area mask without the mud: round it too");
            NavstarTests.Check(navMesh.CalculatePath(west, U(1.5f, 0, 1.5f), ~(1 << 5), path) &&
                               path.status == NavstarPathStatus.PathPartial,
                               "the target in the masked-out mud: a partial path");
            NavstarTests.Check(navMesh.CalculatePath(U(1.5f, 0, 1.5f), east, 1 << 5, path) &&
                               path.status == NavstarPathStatus.PathPartial && Near(path.corners[1], 2, 0, 1.5f),
                               "only the mud: the east square is out of reach, the path stops at the mud's edge");
            long before = GC.GetAllocatedBytesForCurrentThread();
            for (int i = 0; i < 1000; i++)
            {
                navMesh.CalculatePath(west, east, ~(1 << 5), path);
            }
            long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
            NavstarTests.Check(allocated == 0, "1000 CalculatePath calls into a kept NavstarPath allocated " + allocated);
            NavstarTests.Check(!navMesh.CalculatePath(west, east, 1 << 7, path) &&
                               path.status == NavstarPathStatus.PathInvalid && path.corners.Length == 0,
                               "a mask of an area the mesh lacks: false, PathInvalid, no corners");
            NavstarTests.ExpectThrows(() => navMesh.CalculatePath(U(float.NaN, 0, 0), east, -1, path),
                                      Status.ErrorInvalidArgument, "start", "a NaN source throws");

            NavstarHit hit;
            NavstarTests.Check(navMesh.SamplePosition(U(1.5f, 3, 1.5f), out hit, 5, NavstarNavMesh.AllAreas) &&
                               hit.hit && Near(hit.position, 1.5f, 0, 1.5f) && Math.Abs(hit.distance - 3) < 1e-5f &&
                               hit.mask == 1 << 5 && hit.polygon >= 0,
                               "SamplePosition above the mud: the mud, 3 below, mask 1 << 5");
            NavstarTests.Check(navMesh.SamplePosition(U(1.5f, 0, 1.4f), out hit, 5, ~(1 << 5)) && hit.mask == 1 &&
                               Near(hit.position, 1.5f, 0, 1) && Math.Abs(hit.distance - 0.4f) < 1e-5f,
                               "SamplePosition without the mud: its south edge, 0.4 away");
            NavstarTests.Check(!navMesh.SamplePosition(U(1.5f, 3, 1.5f), out hit, 2, NavstarNavMesh.AllAreas) &&
                               !hit.hit && hit.polygon == -1, "nothing within 2: false");

            NavstarTests.Check(!navMesh.Raycast(west, east, out hit, NavstarNavMesh.AllAreas) && !hit.hit &&
                               Near(hit.position, 2.5f, 0, 1.5f) && Math.Abs(hit.distance - 2) < 1e-5f,
                               "Raycast across the grid: false, at the target");
            NavstarTests.Check(navMesh.Raycast(west, east, out hit, ~(1 << 5)) && hit.hit &&
                               Near(hit.position, 1, 0, 1.5f) && Near(hit.normal, -1, 0, 0) &&
                               Math.Abs(hit.distance - 0.5f) < 1e-5f && hit.mask == 1,
                               "Raycast into the masked-out mud: true, at x = 1, normal -x, 0.5 along");
            NavstarTests.ExpectThrows(() => navMesh.Raycast(west, U(0, float.PositiveInfinity, 0), out hit, -1),
                                      Status.ErrorInvalidArgument, "end", "an infinite target throws");

            NavstarTests.Check(navMesh.FindClosestEdge(U(0.3f, 0, 1.5f), out hit, NavstarNavMesh.AllAreas) && hit.hit &&
                               Near(hit.position, 0, 0, 1.5f) && Math.Abs(hit.distance - 0.3f) < 1e-5f &&
                               Near(hit.normal, 1, 0, 0) && hit.mask == 1,
                               "FindClosestEdge: the west wall, 0.3 away, normal +x");
            NavstarTests.Check(navMesh.FindClosestEdge(U(1.5f, 0, 0.9f), out hit, ~(1 << 5)) &&
                               Near(hit.position, 1.5f, 0, 1) && Math.Abs(hit.distance - 0.1f) < 1e-5f,
                               "FindClosestEdge without the mud: the mud's edge is a wall 0.1 away");
            NavstarTests.Check(!navMesh.FindClosestEdge(U(1.5f, 0, 1.5f), out hit, 1 << 7) && !hit.hit,
                               "FindClosestEdge off every admitted area: false");
            navMesh.AgentRadius = 0.25f;
            NavstarTests.Check(navMesh.SamplePosition(U(0.1f, 2, 1.5f), out hit, 5, NavstarNavMesh.AllAreas) &&
                               Near(hit.position, 0.25f, 0, 1.5f),
                               "AgentRadius 0.25: SamplePosition keeps 0.25 from the west wall");
            NavstarTests.Check(navMesh.Raycast(west, U(3.5f, 0, 1.5f), out hit, NavstarNavMesh.AllAreas) &&
                               Near(hit.position, 2.75f, 0, 1.5f) && Near(hit.normal, -1, 0, 0),
                               "AgentRadius 0.25: Raycast stops 0.25 before the east wall");
            NavstarTests.Check(navMesh.CalculatePath(U(0.1f, 0, 0.1f), east, NavstarNavMesh.AllAreas, path) &&
                               Near(path.corners[0], 0.25f, 0, 0.25f),
                               "AgentRadius 0.25: CalculatePath starts 0.25 from both walls");
            try
            {
                navMesh.AgentRadius = float.NaN;
                NavstarTests.Check(false, "a NaN AgentRadius accepted");
            }
            catch (ArgumentOutOfRangeException)
            {
                NavstarTests.Check(navMesh.AgentRadius == 0.25f, "a NaN AgentRadius rejected, the old one kept");
            }
            try
            {
                navMesh.SetAreaCost(3, float.NaN);
                NavstarTests.Check(false, "a NaN area cost accepted");
            }
            catch (ArgumentException e)
            {
                NavstarTests.Check(e.Message.Contains("area 3"), "a NaN area cost rejected: " + e.Message);
            }
        }
    }
}
#endif
