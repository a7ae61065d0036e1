// SPDX-License-Identifier: MIT
//
// Obstacles of a world (navstar_world_*_obstacle in navstar.h): convex polygons, discs
// and turned boxes cut into the tiles they overlap while other threads query snapshots.

using System;
using System.Globalization;
using System.Runtime.InteropServices;

namespace Navstar
{
    /// <summary>The C struct NavstarObstacle (versioned by its size).</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal struct NativeObstacle
    {
        internal uint StructSize;
        internal uint Shape;
        internal float CenterX;
        internal float CenterY;
        internal float Radius;
        internal float HalfX;
        internal float HalfY;
        internal float Angle;
        internal float Bottom;
        internal float Top;
        internal uint PointCount;
        internal uint Reserved;
        internal IntPtr Points;
    }

    /// <summary>
    /// An obstacle's shape, in ground-plane coordinates (x, z when Y is up; x, y when Z is
    /// up), standing in a range of heights (every height by default). The library checks
    /// it when it is used: a polygon must be strictly convex (either winding, 3 to 256
    /// points), a radius or half extent finite and &gt; 0.
    /// </summary>
    public sealed class Obstacle
    {
        private const uint PolygonShape = 0;
        private const uint CircleShape = 1;
        private const uint BoxShape = 2;

        private NativeObstacle native;
        private readonly float[] points;

        private Obstacle(NativeObstacle native, float[] points)
        {
            this.native = native;
            this.points = points;
        }

        /// <summary>A disc of <paramref name="radius"/> round (x, z).</summary>
        public static Obstacle Circle(float x, float z, float radius)
        {
            NativeObstacle n = NativeMethods.navstar_obstacle_default();
            n.Shape = CircleShape;
            n.CenterX = x;
            n.CenterY = z;
            n.Radius = radius;
            return new Obstacle(n, null);
        }

        /// <summary>A box of half extents (halfX, halfZ) round (x, z), turned by <paramref name="angle"/> radians.</summary>
        public static Obstacle Box(float x, float z, float halfX, float halfZ, float angle = 0)
        {
            NativeObstacle n = NativeMethods.navstar_obstacle_default();
            n.Shape = BoxShape;
            n.CenterX = x;
            n.CenterY = z;
            n.HalfX = halfX;
            n.HalfY = halfZ;
            n.Angle = angle;
            return new Obstacle(n, null);
        }

        /// <summary>A convex polygon from x, z pairs (copied).</summary>
        public static Obstacle Polygon(float[] points)
        {
            if (points == null)
            {
                throw new ArgumentNullException("points");
            }
            NativeObstacle n = NativeMethods.navstar_obstacle_default();
            n.Shape = PolygonShape;
            return new Obstacle(n, (float[])points.Clone());
        }

        /// <summary>This shape standing from <paramref name="bottom"/> to <paramref name="top"/> only.</summary>
        public Obstacle WithHeightRange(float bottom, float top)
        {
            NativeObstacle n = native;
            n.Bottom = bottom;
            n.Top = top;
            return new Obstacle(n, points);
        }

        /// <summary>Calls <paramref name="call"/> with the C struct, its points pinned.</summary>
        internal unsafe Status With(Func<IntPtr, Status> call)
        {
            NativeObstacle n = native;
            fixed (float* p = points)
            {
                if (points != null)
                {
                    n.Points = (IntPtr)p;
                    n.PointCount = (uint)(points.Length / 2);
                }
                return call((IntPtr)(&n));
            }
        }
    }

    /// <summary>
    /// An obstacle of a world: which world and which number. Plain data; a reference to an
    /// obstacle that is gone is refused with Status.ErrorStaleReference.
    /// </summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct ObstacleRef : IEquatable<ObstacleRef>
    {
        public uint World;
        public uint Reserved;
        public ulong Id;

        public bool Equals(ObstacleRef other)
        {
            return World == other.World && Id == other.Id;
        }

        public override bool Equals(object obj)
        {
            return obj is ObstacleRef && Equals((ObstacleRef)obj);
        }

        public override int GetHashCode()
        {
            return (int)(World * 31) ^ Id.GetHashCode();
        }

        public override string ToString()
        {
            return string.Format(CultureInfo.InvariantCulture, "obstacle (world {0}, id {1})", World, Id);
        }
    }

    public sealed partial class NavstarWorld
    {
        /// <summary>
        /// Adds an obstacle: the polygons it overlaps (grown by each tile's baked agent
        /// radius, within its height range) are cut in the next snapshot. On an error
        /// status <paramref name="added"/> is all zeros.
        /// </summary>
        public Status TryAddObstacle(Obstacle obstacle, out ObstacleRef added)
        {
            if (obstacle == null)
            {
                throw new ArgumentNullException("obstacle");
            }
            ObstacleRef result = default(ObstacleRef);
            Status status = obstacle.With(raw => NativeMethods.navstar_world_add_obstacle(this, raw, out result));
            added = result;
            return status;
        }

        /// <summary>Adds an obstacle (see TryAddObstacle) or throws NavstarException.</summary>
        public ObstacleRef AddObstacle(Obstacle obstacle)
        {
            ObstacleRef added;
            NavstarException.ThrowIfError(TryAddObstacle(obstacle, out added));
            return added;
        }

        /// <summary>Gives an obstacle a new shape; Status.ErrorStaleReference when it is gone.</summary>
        public Status TryMoveObstacle(ObstacleRef obstacle, Obstacle shape)
        {
            if (shape == null)
            {
                throw new ArgumentNullException("shape");
            }
            return shape.With(raw => NativeMethods.navstar_world_move_obstacle(this, obstacle, raw));
        }

        /// <summary>Moves an obstacle (see TryMoveObstacle) or throws NavstarException.</summary>
        public void MoveObstacle(ObstacleRef obstacle, Obstacle shape)
        {
            NavstarException.ThrowIfError(TryMoveObstacle(obstacle, shape));
        }

        /// <summary>Removes an obstacle; Status.ErrorStaleReference when it is gone already.</summary>
        public Status TryRemoveObstacle(ObstacleRef obstacle)
        {
            return NativeMethods.navstar_world_remove_obstacle(this, obstacle);
        }

        /// <summary>Removes an obstacle (see TryRemoveObstacle) or throws NavstarException.</summary>
        public void RemoveObstacle(ObstacleRef obstacle)
        {
            NavstarException.ThrowIfError(TryRemoveObstacle(obstacle));
        }

        /// <summary>The number of obstacles in the world now.</summary>
        public int ObstacleCount
        {
            get { return (int)NativeMethods.navstar_world_obstacle_count(this); }
        }
    }
}
