extends Node3D
## navstar sample: builds a NavstarMesh from the NavigationRegion3D's navigation mesh,
## finds a path across the L-shaped floor, prints it and draws it as a red line.
## Then it shows filters, area costs, run-time flags, an off-mesh link, a raycast, the
## closest point, the debug mesh and saving to a resource.
## Godot's own NavigationServer3D answer is printed next to it for comparison.

## Start and goal in world coordinates (try moving the region: navstar works in its
## local space, so the script converts on the way in and out).
@export var from := Vector3(7.5, 0.0, 2.0)
@export var to := Vector3(2.0, 0.0, 7.5)

@onready var region: NavigationRegion3D = $NavigationRegion3D
@onready var line: MeshInstance3D = $PathLine


func _ready() -> void:
	$Camera3D.look_at_from_position(Vector3(4.0, 12.0, 9.0), Vector3(4.0, 0.0, 4.0))
	$Sun.look_at_from_position(Vector3(0.0, 10.0, 0.0), Vector3(3.0, 0.0, 5.0))

	var navmesh: NavigationMesh = region.navigation_mesh

	# 1. From the arrays, in the shape NavigationMesh hands them out.
	var polygons: Array[PackedInt32Array] = []
	for i in navmesh.get_polygon_count():
		polygons.append(navmesh.get_polygon(i))
	var mesh := NavstarMesh.new()
	if not mesh.build_from_polygons(navmesh.get_vertices(), polygons):
		push_error("navstar: the mesh was rejected: " + mesh.get_last_error())
		return

	# 2. The same in one call.
	var same := NavstarMesh.from_navigation_mesh(navmesh)
	print("navstar: %d polygons, %d vertices, %d island(s); from_navigation_mesh: %d polygons" % [
		mesh.get_polygon_count(), mesh.get_vertex_count(), mesh.get_island_count(),
		same.get_polygon_count()])

	# 3. A path. The navigation mesh is in the region's local coordinates.
	var to_local := region.global_transform.affine_inverse()
	var local_path := mesh.find_path(to_local * from, to_local * to)
	if local_path.is_empty():
		push_error("navstar: no path: " + mesh.get_last_error())
		return
	var path: PackedVector3Array = region.global_transform * local_path
	print("navstar path, %d corners: %s" % [path.size(), path])
	_draw_path(path)
	_follow(mesh)

	# 4. Errors come back as an empty array plus get_last_error().
	mesh.max_snap_distance = 1.0
	var none := mesh.find_path(Vector3(100.0, 0.0, 100.0), to_local * to)
	print("navstar, start 100 units away with max_snap_distance 1: %d corners; error: %s" % [
		none.size(), mesh.get_last_error()])
	mesh.max_snap_distance = INF
	var broken := NavstarMesh.new()
	var bad_polygons: Array[PackedInt32Array] = [PackedInt32Array([0, 1, 99])]
	broken.build_from_polygons(navmesh.get_vertices(), bad_polygons)  # also prints the error
	print("navstar, bad polygon: %s" % broken.get_last_error())

	_filters_flags_and_links(navmesh.get_vertices(), polygons, to_local * from, to_local * to)

	# Godot's own path for comparison; the navigation map is synced on physics frames.
	await get_tree().physics_frame
	await get_tree().physics_frame
	var godot_path := NavigationServer3D.map_get_path(get_world_3d().navigation_map, from, to, true)
	print("NavigationServer3D path, %d corners: %s" % [godot_path.size(), godot_path])


## An agent following the last path: a corridor made from it, moved at most 1 unit a
## step towards its next corner until no corner is left; then a move along the surface
## that slides along the far wall of the right arm. (Local coordinates.)
func _follow(mesh: NavstarMesh) -> void:
	var corridor := mesh.create_corridor()
	if corridor == null:
		push_error("navstar: no corridor: " + mesh.get_last_error())
		return
	var steps := 0
	while steps < 100:
		var next := corridor.get_corners(1)
		if next.is_empty():
			break
		var here := corridor.get_position()
		corridor.move_position(here + (next[0] - here).limit_length(1.0))
		steps += 1
	print("navstar corridor: the agent reached %s in %d steps" % [
		corridor.get_position().snapped(Vector3(0.01, 0.01, 0.01)), steps])
	var slide := mesh.move_along_surface(Vector3(6.0, 0.0, 2.0), Vector3(9.0, 0.0, 6.0))
	print("navstar move_along_surface: stopped at %s after %d wall(s)" % [
		(slide["position"] as Vector3).snapped(Vector3(0.01, 0.01, 0.01)), slide["walls"]])


func _draw_path(path: PackedVector3Array) -> void:
	var lines := ImmediateMesh.new()
	lines.surface_begin(Mesh.PRIMITIVE_LINE_STRIP)
	for point in path:
		lines.surface_add_vertex(point + Vector3.UP * 0.05)
	lines.surface_end()
	var material := StandardMaterial3D.new()
	material.shading_mode = BaseMaterial3D.SHADING_MODE_UNSHADED
	material.albedo_color = Color.RED
	line.mesh = lines
	line.material_override = material


## Areas, flags, a link, raycast, closest point, debug drawing and a resource. All points
## are in the region's local space (the scene leaves the region at the origin).
func _filters_flags_and_links(vertices: PackedVector3Array, polygons: Array[PackedInt32Array],
		start: Vector3, goal: Vector3) -> void:
	# The corner square (polygon 0) is mud: area 1, three times as dear to cross. A one-way
	# jump leads from the right arm to the bottom arm, skipping the corner.
	var jump := {
		"start_position": Vector3(6.0, 0.0, 3.5), "end_position": Vector3(3.5, 0.0, 6.0),
		"bidirectional": false, "cost": 1.0,
	}
	var doors := NavstarMesh.new()
	if not doors.build_with(vertices, polygons, PackedInt32Array([1, 0, 0]),
			PackedInt32Array(), [jump]):
		return
	doors.area_costs = PackedFloat32Array([1.0, 3.0])
	var jumped := doors.find_path(start, goal)
	print("navstar with mud and a jump: %s; links per corner %s; cost %.2f" % [
		jumped, doors.get_last_path_links(), doors.get_last_path_cost()])

	# Close the jump at run time, and mark the corner square with layer 2 only: a query
	# on navigation layer 1 can no longer reach the bottom arm.
	doors.set_link_flags(0, 0)
	doors.set_polygon_flags(0, 2)
	doors.navigation_layers = 1
	var cut := doors.find_path(start, goal)
	print("navstar on layer 1 with the corner closed: %s (partial: %s)" % [
		cut, doors.is_last_path_partial()])
	doors.navigation_layers = 0xFFFFFFFF

	# A raycast along the right arm stops at its far wall; the closest point of the mesh
	# to a point in the empty quarter lies on an edge of the L.
	var ray := doors.raycast(Vector3(6.0, 0.0, 2.0), Vector3(6.0, 0.0, 10.0))
	print("navstar raycast: stopped at %s, wall hit: %s, normal %s" % [
		ray["position"], ray["hit"], ray["normal"]])
	print("navstar closest point to (6, 0, 5): %s" % doors.get_closest_point(Vector3(6.0, 0.0, 5.0)))

	# The mesh as a MeshInstance3D (triangles, walls and shared edges), slightly raised.
	var debug := MeshInstance3D.new()
	debug.mesh = doors.get_debug_mesh()
	debug.position = Vector3.UP * 0.02
	var material := StandardMaterial3D.new()
	material.shading_mode = BaseMaterial3D.SHADING_MODE_UNSHADED
	material.cull_mode = BaseMaterial3D.CULL_DISABLED
	material.albedo_color = Color(0.2, 0.6, 1.0, 0.4)
	material.transparency = BaseMaterial3D.TRANSPARENCY_ALPHA
	debug.material_override = material
	add_child(debug)

	# Saved as a resource (navstar's binary format inside) and loaded back.
	var resource := NavstarMeshResource.from_mesh(doors)
	var reloaded := resource.create_mesh()
	print("navstar resource: %d bytes, reloaded %d polygons, link flags %d" % [
		resource.data.size(), reloaded.get_polygon_count(), reloaded.get_link_flags(0)])
