// SPDX-License-Identifier: MIT
//
// For people coming from UnityEngine.AI.NavMesh: NavstarNavMesh has CalculatePath,
// SamplePosition, Raycast, FindClosestEdge and area costs with Unity's names, argument
// order and answers (a bool, a NavstarPath, a NavstarHit), over one navstar mesh. Unity's
// area indices are navstar's area ids (0 to 31, imported from NavMeshTriangulation.areas)
// and Unity's area mask is matched against polygon flags (a triangulation's triangle of
// area a gets flags 1 << a), see UnityAreas.

#if UNITY_5_3_OR_NEWER
using System;
using System.Threading;
using UnityEngine.AI;
using UVector3 = UnityEngine.Vector3;

namespace Navstar
{
    /// <summary>Unity's area indices in navstar: the import of NavMeshTriangulation.areas.</summary>
    public static class UnityAreas
    {
        /// <summary>Unity has 32 areas (0 to 31); navstar has QueryFilter.MaxAreas (64) area ids.</summary>
        public const int Count = 32;

        /// <summary>
        /// Per triangle of a triangulation: navstar area id = Unity area index, flags =
        /// 1 &lt;&lt; area (so that Unity's area mask is QueryFilter.IncludeFlags).
        /// <paramref name="unityAreas"/> null gives area 0 and flags 1 everywhere. Throws
        /// ArgumentException when its length is not <paramref name="triangleCount"/>, and
        /// ArgumentOutOfRangeException naming the first triangle whose area is not 0..31.
        /// </summary>
        public static void Import(int[] unityAreas, int triangleCount, out byte[] areas, out uint[] flags)
        {
            if (unityAreas != null && unityAreas.Length != triangleCount)
            {
                throw new ArgumentException(
                    "areas has " + unityAreas.Length + " entries for " + triangleCount + " triangles", "areas");
            }
            areas = new byte[triangleCount];
            flags = new uint[triangleCount];
            for (int i = 0; i < triangleCount; i++)
            {
                int area = unityAreas == null ? 0 : unityAreas[i];
                if (area < 0 || area >= Count)
                {
                    throw new ArgumentOutOfRangeException(
                        "areas", area, "triangle " + i + " has area " + area + "; Unity areas are 0 to " + (Count - 1));
                }
                areas[i] = (byte)area;
                flags[i] = 1u << area;
            }
        }

        /// <summary>
        /// A filter for a Unity area mask (bit a admits area a; NavstarNavMesh.AllAreas
        /// admits all) with the costs of <paramref name="areaCosts"/> (entry a is area a's
        /// cost, as NavMesh.GetAreaCost(a); null: all 1). Throws ArgumentException when
        /// areaCosts has more than 32 entries or a cost that is not finite and &gt; 0.
        /// </summary>
        public static QueryFilter Filter(int areaMask, float[] areaCosts)
        {
            QueryFilter filter = QueryFilter.Default;
            filter.IncludeFlags = unchecked((uint)areaMask);
            if (areaCosts == null)
            {
                return filter;
            }
            if (areaCosts.Length > Count)
            {
                throw new ArgumentException("areaCosts has " + areaCosts.Length + " entries; Unity has 32 areas",
                                            "areaCosts");
            }
            for (int area = 0; area < areaCosts.Length; area++)
            {
                CheckCost(area, areaCosts[area]);
                filter.SetAreaCost(area, areaCosts[area]);
            }
            return filter;
        }

        internal static void CheckCost(int area, float cost)
        {
            if (!(cost > 0) || float.IsInfinity(cost))
            {
                throw new ArgumentException("area " + area + " has cost " + cost + "; costs are finite and > 0",
                                            "areaCosts");
            }
        }

        // Unity's mask bit of a navstar area id (0 for ids Unity does not have).
        internal static int MaskOf(int area)
        {
            return area >= 0 && area < Count ? 1 << area : 0;
        }
    }

    /// <summary>The state of a NavstarPath, as UnityEngine.AI.NavMeshPathStatus (same values).</summary>
    public enum NavstarPathStatus
    {
        /// <summary>The path reaches the target.</summary>
        PathComplete = 0,
        /// <summary>The target is unreachable: the path ends at the closest reachable point.</summary>
        PathPartial = 1,
        /// <summary>No path (none computed yet, or the last CalculatePath failed).</summary>
        PathInvalid = 2,
    }

    /// <summary>
    /// A path filled by NavstarNavMesh.CalculatePath, as UnityEngine.AI.NavMeshPath. Keep
    /// one and reuse it: its point storage grows to the longest path and is kept, so
    /// CalculatePath and GetCornersNonAlloc allocate nothing once it is large enough.
    /// Not for several threads at once.
    /// </summary>
    public sealed class NavstarPath
    {
        private UVector3[] points = new UVector3[16];
        private int count;

        /// <summary>A new, empty path (status PathInvalid).</summary>
        public NavstarPath()
        {
            status = NavstarPathStatus.PathInvalid;
        }

        /// <summary>Whether the last CalculatePath reached the target, stopped short, or failed.</summary>
        public NavstarPathStatus status { get; private set; }

        /// <summary>The corners, start to end, as a new array (as NavMeshPath.corners).</summary>
        public UVector3[] corners
        {
            get
            {
                var copy = new UVector3[count];
                Array.Copy(points, copy, count);
                return copy;
            }
        }

        /// <summary>
        /// Copies the corners into <paramref name="results"/> without allocating and returns
        /// how many were copied (at most results.Length), as NavMeshPath.GetCornersNonAlloc.
        /// </summary>
        public int GetCornersNonAlloc(UVector3[] results)
        {
            if (results == null)
            {
                throw new ArgumentNullException("results");
            }
            int copied = Math.Min(count, results.Length);
            Array.Copy(points, results, copied);
            return copied;
        }

        /// <summary>Empties the path (status PathInvalid).</summary>
        public void ClearCorners()
        {
            count = 0;
            status = NavstarPathStatus.PathInvalid;
        }

        // Finds the path into the kept storage, growing it once when it is too small.
        internal Status Fill(NavstarQuery query, UVector3 source, UVector3 target, PathOptions options, QueryFilter filter)
        {
            Status result = query.FindPath(source, target, options, filter, points, out count);
            if (result == Status.BufferTooSmall)
            {
                points = new UVector3[Math.Max(count, points.Length * 2)];
                result = query.FindPath(source, target, options, filter, points, out count);
            }
            if (result < 0)
            {
                ClearCorners();
            }
            else
            {
                status = result == Status.Ok ? NavstarPathStatus.PathComplete : NavstarPathStatus.PathPartial;
            }
            return result;
        }
    }

    /// <summary>
    /// Where a NavstarNavMesh query landed, as UnityEngine.AI.NavMeshHit (Unity's member
    /// names). <see cref="polygon"/> is navstar's polygon, -1 when there is none.
    /// </summary>
    public struct NavstarHit
    {
        /// <summary>The point found (on the mesh).</summary>
        public UVector3 position { get; internal set; }

        /// <summary>The wall's normal for Raycast and FindClosestEdge (pointing into the walkable side); zero for SamplePosition.</summary>
        public UVector3 normal { get; internal set; }

        /// <summary>The distance from the source position to <see cref="position"/>.</summary>
        public float distance { get; internal set; }

        /// <summary>The Unity area mask bit of the polygon at <see cref="position"/> (1 &lt;&lt; area; 0 when none).</summary>
        public int mask { get; internal set; }

        /// <summary>Raycast: whether the walk was stopped. SamplePosition, FindClosestEdge: whether something was found.</summary>
        public bool hit { get; internal set; }

        /// <summary>The navstar polygon at <see cref="position"/>, or -1.</summary>
        public int polygon { get; internal set; }
    }

    /// <summary>
    /// UnityEngine.AI.NavMesh's static queries, on one navstar mesh. Answers follow Unity's:
    /// false when Unity's would be false (nothing within maxDistance, no path, no edge);
    /// input Unity rejects too (NaN or infinite points, a negative maxDistance) throws
    /// NavstarException with the library's message. Any thread may use it at once: each
    /// thread gets its own NavstarQuery on first use. Dispose it to free those queries
    /// (and the mesh when it owns it).
    /// </summary>
    public sealed class NavstarNavMesh : IDisposable
    {
        /// <summary>Unity's NavMesh.AllAreas: a mask admitting every area.</summary>
        public const int AllAreas = -1;

        private readonly bool ownsMesh;
        private readonly ThreadLocal<NavstarQuery> queries;
        private readonly float[] areaCosts = new float[UnityAreas.Count];

        /// <summary>
        /// Queries over <paramref name="mesh"/> (not owned: dispose it yourself, after this).
        /// <paramref name="areaCosts"/>: entry a is area a's cost (as NavMesh.GetAreaCost(a));
        /// null or missing entries: 1.
        /// </summary>
        public NavstarNavMesh(NavstarMesh mesh, float[] areaCosts = null) : this(mesh, areaCosts, false)
        {
        }

        private NavstarNavMesh(NavstarMesh mesh, float[] costs, bool owns)
        {
            if (mesh == null)
            {
                throw new ArgumentNullException("mesh");
            }
            UnityAreas.Filter(AllAreas, costs); // checks the costs
            for (int area = 0; area < UnityAreas.Count; area++)
            {
                areaCosts[area] = costs != null && area < costs.Length ? costs[area] : 1f;
            }
            Mesh = mesh;
            ownsMesh = owns;
            queries = new ThreadLocal<NavstarQuery>(mesh.CreateQuery, true);
        }

        /// <summary>
        /// Builds the mesh from Unity's triangulation with its areas (NavstarMesh.Create(
        /// NavMeshTriangulation)) and owns it. <paramref name="areaCosts"/> as in the constructor.
        /// </summary>
        public static NavstarNavMesh Create(NavMeshTriangulation triangulation, float[] areaCosts = null)
        {
            return new NavstarNavMesh(NavstarMesh.Create(triangulation), areaCosts, true);
        }

        /// <summary>The navstar mesh queried.</summary>
        public NavstarMesh Mesh { get; private set; }

        private float agentRadius;

        /// <summary>
        /// The agent's radius (world units, finite, &gt;= 0; default 0), as a NavMeshAgent's
        /// radius: CalculatePath (without options), SamplePosition, Raycast and FindClosestEdge keep the agent's
        /// centre this far from every wall (several agent sizes on one mesh; see the README).
        /// ArgumentOutOfRangeException for NaN, infinite or negative values.
        /// </summary>
        public float AgentRadius
        {
            get { return agentRadius; }
            set
            {
                if (!(value >= 0) || float.IsInfinity(value))
                {
                    throw new ArgumentOutOfRangeException("AgentRadius", value, "the agent radius is finite and >= 0");
                }
                agentRadius = value;
            }
        }

        /// <summary>The cost of Unity area <paramref name="areaIndex"/> (0 to 31), as NavMesh.GetAreaCost.</summary>
        public float GetAreaCost(int areaIndex)
        {
            CheckArea(areaIndex);
            return areaCosts[areaIndex];
        }

        /// <summary>
        /// Sets the cost of Unity area <paramref name="areaIndex"/> for later queries, as
        /// NavMesh.SetAreaCost: finite and &gt; 0 (ArgumentException otherwise; navstar
        /// allows costs below 1, Unity does not). Not while other threads query.
        /// </summary>
        public void SetAreaCost(int areaIndex, float cost)
        {
            CheckArea(areaIndex);
            UnityAreas.CheckCost(areaIndex, cost);
            areaCosts[areaIndex] = cost;
        }

        /// <summary>
        /// The path from <paramref name="sourcePosition"/> to <paramref name="targetPosition"/>
        /// over the areas of <paramref name="areaMask"/> into <paramref name="path"/>, as
        /// NavMesh.CalculatePath: true with path.status PathComplete, or PathPartial when the
        /// target is unreachable (the path ends at the closest reachable point); false with
        /// PathInvalid when the source is on no admitted polygon or no path exists. Both points
        /// are moved onto the mesh first (PathOptions.Default's snapping).
        /// </summary>
        public bool CalculatePath(UVector3 sourcePosition, UVector3 targetPosition, int areaMask, NavstarPath path)
        {
            PathOptions options = PathOptions.Default;
            options.AgentRadius = agentRadius;
            return CalculatePath(sourcePosition, targetPosition, areaMask, path, options);
        }

        /// <summary>CalculatePath with navstar's options (their AgentRadius, not this object's; Mode, MaxSnapDistance, ...).</summary>
        public bool CalculatePath(
            UVector3 sourcePosition, UVector3 targetPosition, int areaMask, NavstarPath path, PathOptions options)
        {
            if (path == null)
            {
                throw new ArgumentNullException("path");
            }
            Status status = path.Fill(Query(), sourcePosition, targetPosition, options, FilterFor(areaMask));
            return Answer(status);
        }

        /// <summary>
        /// The nearest point of the areas of <paramref name="areaMask"/> within
        /// <paramref name="maxDistance"/> of <paramref name="sourcePosition"/> (3D), as
        /// NavMesh.SamplePosition: true with hit.position, hit.distance, hit.mask; false when
        /// none is that close.
        /// </summary>
        public bool SamplePosition(UVector3 sourcePosition, out NavstarHit hit, float maxDistance, int areaMask)
        {
            UVector3 nearest;
            int polygon;
            float distance;
            Status status = Mesh.NearestPointForAgent(
                sourcePosition, maxDistance, agentRadius, out nearest, out polygon, out distance, FilterFor(areaMask));
            hit = new NavstarHit { polygon = -1 };
            if (!Answer(status))
            {
                return false;
            }
            hit = new NavstarHit
            {
                position = nearest, distance = distance, mask = MaskOfPolygon(polygon), hit = true, polygon = polygon,
            };
            return true;
        }

        /// <summary>
        /// Walks straight along the surface from <paramref name="sourcePosition"/> (moved onto
        /// the mesh) towards <paramref name="targetPosition"/>, as NavMesh.Raycast: true when
        /// the walk is stopped before the target (a wall or an area outside the mask), with
        /// hit.position where it stopped and hit.normal the wall's; false when it gets there
        /// (hit.position is then the target on the surface). hit.distance is from the source.
        /// A source on no admitted polygon throws NavstarException (Status.ErrorNotOnMesh).
        /// </summary>
        public bool Raycast(UVector3 sourcePosition, UVector3 targetPosition, out NavstarHit hit, int areaMask)
        {
            MeshRaycastHit ray;
            NavstarException.ThrowIfError(
                Mesh.TryRaycastForAgent(sourcePosition, targetPosition, agentRadius, out ray, FilterFor(areaMask)));
            UVector3 point = ray.Point;
            hit = new NavstarHit
            {
                position = point, normal = ray.Normal, distance = Distance(sourcePosition, point),
                mask = MaskOfPolygon(ray.Polygon), hit = ray.Hit, polygon = ray.Polygon,
            };
            return ray.Hit;
        }

        /// <summary>
        /// The nearest wall (an edge with no admitted polygon across) to
        /// <paramref name="sourcePosition"/> (moved onto the mesh), as NavMesh.FindClosestEdge:
        /// true with hit.position on the wall, hit.distance and hit.normal; false when the
        /// point is on no admitted polygon or the region has no wall. With an AgentRadius above
        /// 0 the point first moves to where the agent fits, and the edge is the wall moved in
        /// by the radius (hit.distance is the wall distance less the radius).
        /// </summary>
        public bool FindClosestEdge(UVector3 sourcePosition, out NavstarHit hit, int areaMask)
        {
            WallDistance wall;
            Status status = Query().DistanceToWallForAgent(
                sourcePosition, float.PositiveInfinity, agentRadius, out wall, FilterFor(areaMask));
            hit = new NavstarHit { polygon = -1 };
            if (!Answer(status) || !wall.Found)
            {
                return false;
            }
            hit = new NavstarHit
            {
                position = wall.Point, normal = wall.Normal, distance = wall.Distance, mask = MaskOfPolygon(wall.Polygon),
                hit = true, polygon = wall.Polygon,
            };
            return true;
        }

        /// <summary>Disposes the per-thread queries, and the mesh when Create made it.</summary>
        public void Dispose()
        {
            foreach (NavstarQuery query in queries.Values)
            {
                query.Dispose();
            }
            queries.Dispose();
            if (ownsMesh)
            {
                Mesh.Dispose();
            }
        }

        private NavstarQuery Query()
        {
            return queries.Value;
        }

        private QueryFilter FilterFor(int areaMask)
        {
            return UnityAreas.Filter(areaMask, areaCosts);
        }

        private int MaskOfPolygon(int polygon)
        {
            uint flags;
            int area;
            return polygon >= 0 && Mesh.GetPolygonInfo(polygon, out flags, out area) >= 0 ? UnityAreas.MaskOf(area) : 0;
        }

        // false for the answers Unity gives as false; throws for the rest of the errors.
        private static bool Answer(Status status)
        {
            if (status == Status.ErrorNotOnMesh || status == Status.ErrorNoPath)
            {
                return false;
            }
            NavstarException.ThrowIfError(status);
            return true;
        }

        private static float Distance(UVector3 a, UVector3 b)
        {
            float x = a.x - b.x, y = a.y - b.y, z = a.z - b.z;
            return (float)Math.Sqrt(x * x + y * y + z * z);
        }

        private static void CheckArea(int areaIndex)
        {
            if (areaIndex < 0 || areaIndex >= UnityAreas.Count)
            {
                throw new ArgumentOutOfRangeException("areaIndex", areaIndex, "Unity areas are 0 to 31");
            }
        }
    }
}
#endif
