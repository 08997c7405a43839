/*
 * idiom_rigid.c: rigid bodies: quaternions, transforms and spatial
 * vectors.
 *
 * Poses integrated by twists (quaternion kinematics, gravity and
 * damping, the twist written back), body points to world space with
 * their velocities and a ground penalty, a point cloud through one pose
 * or each point's instance's, rotated frames and world inertia,
 * rotations or poses averaged per cluster (atomics into wp.quat and
 * wp.transform arrays), joint-relative transforms and their errors.  A
 * quaternion read from an array is normalized before it rotates.
 */
#include "gen/idiom.h"

/* When ON (half the kernels), the vector V scaled back to a largest length
 * (a spin or speed limit), that length named LEN */
static void limit(Kit *k, const char *v, const char *len, int on)
{
	if (on)
		kit_cap_length(k, v, len, kit_num(k, 0.6, 1.2));
}

/* An atomic into an array of quaternions (XFORM 0) or transforms (1),
 * ADD or subtract: the line written, and its coverage row the overload's.
 * kit_end's count of the kernel's text takes every wp.atomic_add for the
 * overload of scalar and vector arrays; the count it adds there is taken
 * back here first (unsigned: the sum comes out right). */
static void shaped_atomic(Kit *k, int add, int xform, const char *arr_, const char *idx, const char *val)
{
	G *g = k->g;
	B(k, "wp.atomic_%s(%s, %s, %s)", add ? "add" : "sub", arr_, idx, val);
	g->cov->b[add ? GB_ATOMIC_ADD : GB_ATOMIC_SUB]--;
	g->cov->b[add ? (xform ? GB_ATOMIC_ADD_X : GB_ATOMIC_ADD_Q)
		      : (xform ? GB_ATOMIC_SUB_X : GB_ATOMIC_SUB_Q)]++;
}

/* Rotations averaged per cluster (shape matching, fused sensors), after
 * kind 2's first line: each flipped into the hemisphere of its cluster's
 * reference (or of one reference for all) and summed, or with its
 * position as a pose; weighted by a given weight, a mass, or a confidence
 * that falls with the element's residual (or a mass times one), with the
 * weights or the members counted and their positions summed beside; half
 * the time a running sum that trades an element's old contribution for
 * its new one. */
static void average_rotations(Kit *k)
{
	G *g = k->g;
	const char *t = k->tid;
	const char *own = kit_arr(k, ONE(g, "cluster", "group", "owner"), "int", 1);
	/* the rotation from the element's rest orientation (shape matching),
	 * measured in the world frame or in the element's own */
	if (chance(g, 35)) {
		const char *rest = kit_arr(k, ONE(g, "rest_q", "rot_rest", "q0"), "wp.quat", 1);
		if (chance(g, 60))
			B(k, "r = r * wp.quat_inverse(wp.normalize(%s[%s]))", rest, t);
		else
			B(k, "r = wp.quat_inverse(wp.normalize(%s[%s])) * r", rest, t);
	}
	const char *ref =
		chance(g, 60) ? F(k, "%s[c]", kit_arr(k, ONE(g, "ref_rot", "q_ref", "cluster_rot"), "wp.quat", 1))
			      : kit_scalar(k, ONE(g, "ref", "q_rest", "rest_rot"), "wp.quat");
	B(k, "c = %s[%s]", own, t);
	COV(g, stmt_if);
	B(k, "if wp.dot(r, %s) < 0.0:", ref);
	k->ind++;
	B(k, "r = -r");
	k->ind--;
	int pose = chance(g, 40);
	const char *val = "r";
	if (pose) {
		COV(g, type_transform);
		const char *pos = kit_arr(k, ONE(g, "com", "body_pos", "x"), "wp.vec3", 1);
		if (chance(g, 30))
			B(k, "X = wp.transform(%s[%s] + wp.quat_rotate(r, %s), r)", pos, t,
			  kit_scalar(k, ONE(g, "offset", "marker", "anchor"), "wp.vec3"));
		else
			B(k, "X = wp.transform(%s[%s], r)", pos, t);
		val = "X";
	}
	const char *w = NULL;
	static const int ww[] = {20, 30, 25, 15, 10};
	switch (wpick(g, ww, 5)) {
	case 0:
		w = F(k, "%s[%s]", kit_arr(k, ONE(g, "weight", "mass", "confidence"), "float", 1), t);
		break;
	case 1: {
		const char *res = kit_arr(k, ONE(g, "residual", "err", "fit_error"), "float", 1);
		B(k, "w = wp.exp(-%s * %s[%s])", kit_coef(k, ONE(g, "sharpness", "falloff", "inv_sigma"), 0.5, 4.0),
		  res, t);
		w = "w";
		break;
	}
	case 2: {
		const char *res = kit_arr(k, ONE(g, "residual", "err", "fit_error"), "float", 1);
		const char *a = kit_num(k, 0.5, 2.0);
		const char *b = kit_num(k, 0.5, 2.0);
		B(k, "w = %s / (%s + %s[%s] * %s[%s])", a, b, res, t, res, t);
		w = "w";
		break;
	}
	case 3: {
		/* a mass times a confidence that falls with the residual */
		const char *ms = kit_arr(k, ONE(g, "mass", "body_mass", "m"), "float", 1);
		const char *res = kit_arr(k, ONE(g, "residual", "err", "fit_error"), "float", 1);
		B(k, "w = %s[%s] * wp.exp(-%s * %s[%s])", ms, t, kit_num(k, 0.5, 4.0), res, t);
		w = "w";
		break;
	}
	}
	if (w)
		val = F(k, "%s * %s", val, w);
	const char *sum = pose ? kit_arr(k, ONE(g, "pose_sum", "cluster_pose", "X_sum"), "wp.transform", 1)
			       : kit_arr(k, ONE(g, "rot_sum", "q_sum", "cluster_q"), "wp.quat", 1);
	/* members scored below a cut (a poor fit, a lost track) left out */
	int gate = chance(g, 50);
	if (gate) {
		COV(g, stmt_if);
		const char *score = kit_arr(k, ONE(g, "score", "quality", "fit"), "float", 1);
		const char *cut = kit_num(k, -0.6, 0.6);
		B(k, "if %s[%s] > %s:", score, t, cut);
		k->ind++;
	}
	if (chance(g, 50)) {
		const char *prev = pose ? kit_arr(k, ONE(g, "prev_pose", "old_pose", "X_prev"), "wp.transform", 1)
					: kit_arr(k, ONE(g, "prev_rot", "old_rot", "q_prev"), "wp.quat", 1);
		shaped_atomic(k, 0, pose, sum, "c", F(k, "%s[%s]", prev, t));
	}
	shaped_atomic(k, 1, pose, sum, "c", val);
	if (!pose && chance(g, 35)) {
		/* the members' centre beside their rotation (shape matching
		 * sums both) */
		const char *pos = kit_arr(k, ONE(g, "x", "com", "body_pos"), "wp.vec3", 1);
		const char *cs = kit_arr(k, ONE(g, "x_sum", "centroid_sum", "com_sum"), "wp.vec3", 1);
		B(k, "wp.atomic_add(%s, c, %s[%s]%s)", cs, pos, t, w ? F(k, " * %s", w) : "");
	}
	if (w && chance(g, 60))
		B(k, "wp.atomic_add(%s, c, %s)", kit_arr(k, ONE(g, "weight_sum", "w_total", "norm"), "float", 1),
		  w);
	else if (!w && chance(g, 40))
		B(k, "wp.atomic_add(%s, c, 1)", kit_arr(k, ONE(g, "count", "members", "n_in"), "int", 1));
	if (gate)
		k->ind--;
	kit_end(k, pose ? ONE(g, "accumulate_poses", "cluster_poses", "average_poses")
			: ONE(g, "average_rotations", "cluster_rotations", "accumulate_rotations"));
}

/* A twist's part X (w or v) damped: by a factor per step, or at a rate
 * over the step, linearly or exactly (an exponential decay) */
static void damp(Kit *k, const char *x, const char *dt, const char *factor, const char *rate)
{
	G *g = k->g;
	/* clang-format off */
	switch (rnd(g, 3)) {
	case 0: B(k, "%s = %s * %s", x, x, kit_coef(k, factor, 0.98, 0.999)); break;
	case 1: B(k, "%s = %s * (1.0 - %s * %s)", x, x, kit_coef(k, rate, 0.05, 0.8), dt); break;
	default: B(k, "%s = %s * wp.exp(-%s * %s)", x, x, kit_coef(k, rate, 0.05, 2.0), dt); break;
	}
	/* clang-format on */
}

/* Poses integrated by body twists: applied wrenches through an inverse
 * mass and inertia, gravity, spin and speed limits, damping; the pose
 * advanced about its origin or its centre of mass, the rotation by the
 * quaternion derivative of a world- or body-frame spin or by the exact
 * rotation of the step; the twist written back in half */
static void integrate_bodies(Kit *k)
{
	G *g = k->g;
	const char *t = k->tid;
	const char *q = kit_arr(k, ONE(g, "body_q", "poses", "body_pose"), "wp.transform", 1);
	const char *qd = kit_arr(k, ONE(g, "body_qd", "twists", "body_vel"), "wp.spatial_vector", 1);
	kit_tid_line(k, 1, t, 0);
	if (chance(g, 20)) {
		/* disabled (sleeping, kinematic) bodies left where they are */
		static const char *const fl[3] = {"body_flags", "flags", "body_state"};
		kit_active_check(k, t, 1, fl);
	}
	COV(g, type_transform);
	COV(g, type_quat);
	COV(g, type_spatial_vector);
	B(k, "X = %s[%s]", q, t);
	B(k, "p = wp.transform_get_translation(X)");
	B(k, "r = wp.normalize(wp.transform_get_rotation(X))");
	B(k, "twist = %s[%s]", qd, t);
	B(k, "w = wp.spatial_top(twist)");
	B(k, "v = wp.spatial_bottom(twist)");
	const char *dt = kit_fparam(k, "dt");
	int vel_out = chance(g, 50);
	if (chance(g, 40)) {
		/* an applied wrench (torque, force), through the inverse mass
		 * and, in two of three, the inverse inertia in the world frame
		 * or in the body's */
		const char *bf = kit_arr(k, ONE(g, "body_f", "wrenches", "body_force"), "wp.spatial_vector", 1);
		const char *im =
			chance(g, 60) ? F(k, "%s[%s]",
					  kit_arr(k, ONE(g, "body_inv_mass", "inv_mass", "inv_m"), "float", 1), t)
				      : kit_coef(k, ONE(g, "inv_mass", "inv_m", "body_inv_mass"), 0.2, 2.0);
		B(k, "f = %s[%s]", bf, t);
		B(k, "v = v + wp.spatial_bottom(f) * (%s * %s)", im, dt);
		int ang = rnd(g, 3);
		if (ang) {
			const char *ii =
				kit_arr(k, ONE(g, "body_inv_inertia", "inv_I", "inv_inertia"), "wp.mat33", 1);
			if (ang == 1)
				B(k, "w = w + %s[%s] * wp.spatial_top(f) * %s", ii, t, dt);
			else
				B(k,
				  "w = w + wp.quat_rotate(r, %s[%s] * wp.quat_rotate_inv(r, wp.spatial_top(f))) * %s",
				  ii, t, dt);
		}
	}
	/* a speed limit, and gravity in the model's units (a literal's
	 * 9.8 would run every body into that limit) */
	int vlim = chance(g, 50);
	if (chance(g, 45)) {
		if (vlim || chance(g, 75))
			B(k, "v = v + %s * %s", kit_scalar(k, "gravity", "wp.vec3"), dt);
		else
			B(k, "v = v + wp.vec3(0.0, %s, 0.0) * %s", ONE(g, "-9.81", "-9.8", "-1.0", "-2.5"), dt);
	}
	int wlim = chance(g, 50);
	limit(k, "w", "speed", wlim);
	limit(k, "v", "vel", vlim);
	if (chance(g, 70)) {
		const char *factor = ONE(g, "angular_damping", "w_damp", "spin_decay");
		const char *rate = ONE(g, "angular_damping", "k_ang", "spin_drag");
		damp(k, "w", dt, factor, rate);
	}
	if (chance(g, 60)) {
		const char *factor = ONE(g, "linear_damping", "v_damp", "drag");
		const char *rate = ONE(g, "linear_damping", "k_lin", "drag");
		damp(k, "v", dt, factor, rate);
	}
	/* about the centre of mass, at an offset in the body frame */
	const char *com =
		chance(g, 25) ? kit_arr(k, ONE(g, "body_com", "com_local", "com_offset"), "wp.vec3", 1) : 0;
	if (com) {
		B(k, "com = %s[%s]", com, t);
		B(k, "x_com = p + wp.quat_rotate(r, com) + v * %s", dt);
	} else {
		B(k, "p = p + v * %s", dt);
	}
	static const int rw[] = {55, 20, 25};
	switch (wpick(g, rw, 3)) {
	case 0:
		B(k, "r = wp.normalize(r + wp.quat(w, 0.0) * r * (0.5 * %s))", dt);
		break;
	case 1: /* a spin in the body frame */
		B(k, "r = wp.normalize(r + r * wp.quat(w, 0.0) * (0.5 * %s))", dt);
		break;
	default: /* the exact rotation of the step */
		B(k, "angle = wp.sqrt(wp.dot(w, w) + %s)", kit_soft_eps(k));
		B(k, "r = wp.normalize(wp.quat_from_axis_angle(w / angle, angle * %s) * r)", dt);
		break;
	}
	if (com)
		B(k, "p = x_com - wp.quat_rotate(r, com)");
	if (chance(g, 25)) {
		/* the pose kept as a position and a rotation of their own */
		const char *po = kit_arr(k, ONE(g, "body_x", "positions", "com_out"), "wp.vec3", 1);
		B(k, "%s[%s] = p", po, t);
		B(k, "%s[%s] = r", kit_arr(k, ONE(g, "body_rot", "rotations", "q_out"), "wp.quat", 1), t);
	} else {
		const char *o = kit_arr(k, ONE(g, "body_q_new", "poses_out", "body_q_out"), "wp.transform", 1);
		B(k, "%s[%s] = wp.transform(p, r)", o, t);
	}
	if (vel_out) {
		const char *vo =
			kit_arr(k, ONE(g, "body_qd_new", "twists_out", "body_qd_out"), "wp.spatial_vector", 1);
		B(k, "%s[%s] = wp.spatial_vector(w, v)", vo, t);
	}
	kit_end(k, ONE(g, "integrate_bodies", "advance_bodies", "step_bodies"));
}

void idiom_rigid(Kit *k)
{
	G *g = k->g;
	const char *t = k->tid;
	int kind = rnd(g, 5);
	if (kind == 4) {
		/* a point cloud through one pose (a camera or a shape's frame),
		 * a transform or a position and a rotation; or instances of a
		 * shape, each point through its instance's pose */
		int split = chance(g, 30);
		const char *inst =
			chance(g, 25) ? kit_arr(k, ONE(g, "instance", "shape_id", "mesh_id"), "int", 1) : 0;
		const char *xf = 0, *pos = 0, *rq = 0;
		if (inst) {
			xf = split ? 0 : kit_arr(k, ONE(g, "xforms", "instance_X", "shape_X"), "wp.transform", 1);
			pos = split ? kit_arr(k, ONE(g, "origins", "instance_pos", "shape_pos"), "wp.vec3", 1) : 0;
			rq = split ? kit_arr(k, ONE(g, "orientations", "instance_rot", "shape_rot"), "wp.quat", 1)
				   : 0;
		} else {
			xf = split ? 0 : kit_scalar(k, ONE(g, "xform", "pose", "frame"), "wp.transform");
			pos = split ? kit_scalar(k, ONE(g, "origin", "position", "translation"), "wp.vec3") : 0;
			rq = split ? kit_scalar(k, ONE(g, "orientation", "rotation", "frame_q"), "wp.quat") : 0;
		}
		const char *pts = kit_arr(k, ONE(g, "points", "vertices", "local_pts"), "wp.vec3", 1);
		kit_tid_line(k, 1, t, 0);
		COV(g, type_transform);
		if (inst) {
			B(k, "b = %s[%s]", inst, t);
			if (split) {
				pos = F(k, "%s[b]", pos);
				rq = F(k, "%s[b]", rq);
			} else {
				B(k, "X = %s[b]", xf);
				xf = "X";
			}
		}
		/* the points scaled first (a uniform scale keeps the normals) */
		if (chance(g, 30))
			B(k, "p = %s[%s] * %s", pts, t,
			  kit_coef(k, ONE(g, "scale", "shape_scale", "size"), 0.5, 2.0));
		else
			B(k, "p = %s[%s]", pts, t);
		int inv = chance(g, 40);
		if (split) {
			COV(g, type_quat);
			B(k, "rot = wp.normalize(%s)", rq);
			if (inv)
				B(k, "q = wp.quat_rotate_inv(rot, p - %s)", pos);
			else
				B(k, "q = wp.quat_rotate(rot, p) + %s", pos);
		} else if (inv) {
			B(k, "q = wp.transform_point(wp.transform_inverse(%s), p)", xf);
		} else {
			B(k, "q = wp.transform_point(%s, p)", xf);
		}
		const char *o = kit_arr(k, ONE(g, "world", "points_out", "transformed"), "wp.vec3", 1);
		if (chance(g, 50)) {
			const char *nrm = kit_arr(k, ONE(g, "normals", "local_n", "dirs"), "wp.vec3", 1);
			const char *no = kit_arr(k, ONE(g, "normals_out", "world_n", "dirs_out"), "wp.vec3", 1);
			if (split)
				B(k, "%s[%s] = wp.normalize(%s(rot, %s[%s]))", no, t,
				  inv ? "wp.quat_rotate_inv" : "wp.quat_rotate", nrm, t);
			else
				B(k, "%s[%s] = wp.normalize(wp.transform_vector(%s, %s[%s]))", no, t, xf, nrm, t);
		}
		if (chance(g, 99)) {
			const char *dist = kit_arr(k, ONE(g, "depth", "dist", "height"), "float", 1);
			if (chance(g, 30)) {
				/* the range from the frame's origin, softened */
				B(k, "radial = wp.sqrt(wp.dot(q, q) + %s)", kit_soft_eps(k));
				B(k, "%s[%s] = %s", dist, t, kit_response(k, "radial"));
			} else
				B(k, "%s[%s] = %s", dist, t, kit_response(k, F(k, "q[%d]", rnd(g, 3))));
		}
		B(k, "%s[%s] = q", o, t);
		kit_end(k, ONE(g, "transform_cloud", "to_world", "apply_pose"));
		return;
	}
	if (kind == 0) {
		integrate_bodies(k);
		return;
	}
	if (kind == 1) {
		/* points attached to bodies, into world space, with velocities */
		const char *q = kit_arr(k, ONE(g, "body_q", "poses"), "wp.transform", 1);
		const char *lp = kit_arr(k, ONE(g, "local_points", "shape_points", "anchors"), "wp.vec3", 1);
		const char *bid = kit_arr(k, ONE(g, "point_body", "body_index", "owner"), "int", 1);
		kit_tid_line(k, 1, t, 0);
		COV(g, type_transform);
		B(k, "body = %s[%s]", bid, t);
		B(k, "X = %s[body]", q);
		B(k, "world = wp.transform_point(X, %s[%s])", lp, t);
		const char *wo = kit_arr(k, ONE(g, "world_points", "points_out", "x_world"), "wp.vec3", 1);
		int vel = chance(g, 50);
		/* the contact's force also turns the body: a torque beside the
		 * force, or one wrench (torque, force) */
		int turn = rnd(g, 3);
		if (vel || turn)
			B(k, "arm = world - wp.transform_get_translation(X)");
		if (vel) {
			const char *qd = kit_arr(k, ONE(g, "body_qd", "twists"), "wp.spatial_vector", 1);
			COV(g, type_spatial_vector);
			B(k, "twist = %s[body]", qd);
			const char *vo = kit_arr(k, ONE(g, "point_vel", "v_world", "velocities"), "wp.vec3", 1);
			B(k, "pv = wp.spatial_bottom(twist) + wp.cross(wp.spatial_top(twist), arm)");
			B(k, "%s[%s] = pv", vo, t);
		}
		{
			/* a penalty contact with the ground (y or z up, or a plane
			 * given as its normal and offset, as warp.sim's ground is), a
			 * contact margin per point or not, damped by the point's
			 * speed into it when that is known, with viscous friction
			 * along it */
			int up = chance(g, 70) ? 1 : 2;
			const char *plane =
				chance(g, 20) ? kit_scalar(k, ONE(g, "ground", "ground_plane", "plane"), "wp.vec4")
					      : 0;
			const char *f = turn == 2 ? kit_arr(k, ONE(g, "body_f", "wrenches", "body_force"),
							    "wp.spatial_vector", 1)
						  : kit_arr(k, ONE(g, "contact_f", "forces", "f"), "wp.vec3", 1);
			const char *kc = kit_fparam(k, ONE(g, "contact_ke", "ke", "stiffness"));
			COV(g, stmt_if);
			/* (the contact with a plane begins a tuned margin early) */
			const char *h =
				plane ? F(k, "%s - %s[3]", kit_num(k, 0.005, 0.08), plane) : kit_num(k, -0.2, 0.3);
			const char *height = plane ? "wp.dot(n, world)" : F(k, "world[%d]", up);
			if (plane)
				B(k, "n = wp.vec3(%s[0], %s[1], %s[2])", plane, plane, plane);
			if (chance(g, 35)) {
				const char *rad = kit_arr(k, ONE(g, "radius", "thickness", "margin"), "float", 1);
				B(k, "depth = %s + %s[%s] - %s", h, rad, t, height);
			} else
				B(k, "depth = %s - %s", h, height);
			B(k, "if depth > 0.0:");
			k->ind++;
			const char *law = kit_prod(k, kc, chance(g, 30) ? "depth" : kit_response(k, "depth"));
			const char *vn = plane ? "wp.dot(pv, n)" : F(k, "pv[%d]", up);
			if (vel)
				law = F(k, "%s - %s * wp.min(%s, 0.0)", law,
					kit_coef(k, ONE(g, "contact_kd", "kd", "damping"), 0.05, 0.5), vn);
			const char *fv = plane     ? F(k, "n * (%s)", law)
					 : up == 1 ? F(k, "wp.vec3(0.0, %s, 0.0)", law)
						   : F(k, "wp.vec3(0.0, 0.0, %s)", law);
			if (vel && chance(g, 40)) {
				B(k, "fc = %s", fv);
				const char *kf = kit_coef(k, ONE(g, "contact_kf", "kf", "friction"), 0.05, 0.8);
				if (plane)
					B(k, "fc = fc - %s * (pv - n * wp.dot(pv, n))", kf);
				else if (up == 1)
					B(k, "fc = fc - %s * wp.vec3(pv[0], 0.0, pv[2])", kf);
				else
					B(k, "fc = fc - %s * wp.vec3(pv[0], pv[1], 0.0)", kf);
				fv = "fc";
			} else if (turn) {
				B(k, "fc = %s", fv);
				fv = "fc";
			}
			if (turn == 2) {
				B(k, "wp.atomic_add(%s, body, wp.spatial_vector(wp.cross(arm, %s), %s))", f, fv,
				  fv);
			} else {
				B(k, "wp.atomic_add(%s, body, %s)", f, fv);
				if (turn)
					B(k, "wp.atomic_add(%s, body, wp.cross(arm, %s))",
					  kit_arr(k, ONE(g, "contact_t", "torques", "tau"), "wp.vec3", 1), fv);
			}
			k->ind--;
		}
		B(k, "%s[%s] = world", wo, t);
		kit_end(k, ONE(g, "transform_points", "eval_shapes", "update_anchors"));
		return;
	}
	if (kind == 2) {
		/* orientations: rotate a body-frame vector, the world inertia */
		const char *rot = kit_arr(k, ONE(g, "rot", "orientations", "body_rot", "q"), "wp.quat", 1);
		kit_tid_line(k, 1, t, 0);
		COV(g, type_quat);
		B(k, "r = wp.normalize(%s[%s])", rot, t);
		if (chance(g, 20)) {
			average_rotations(k);
			return;
		}
		if (chance(g, 50)) {
			/* the body-frame inertia as a matrix or as its principal
			 * moments */
			const char *inertia =
				chance(g, 70)
					? F(k, "%s[%s]",
					    kit_arr(k, ONE(g, "inertia", "body_I", "I_body"), "wp.mat33", 1), t)
					: F(k, "wp.diag(%s[%s])",
					    kit_arr(k, ONE(g, "moments", "I_diag", "principal_I"), "wp.vec3", 1),
					    t);
			B(k, "R = wp.quat_to_matrix(r)");
			const char *o =
				kit_arr(k, ONE(g, "inertia_world", "I_world", "world_inertia"), "wp.mat33", 1);
			/* an armature: inertia added about every axis, as warp.sim's
			 * bodies carry for stability */
			const char *arm = chance(g, 40) ? F(k, " + %s * wp.identity(n=3, dtype=float)",
							    kit_num(k, 0.002, 0.08))
							: "";
			if (chance(g, 2)) {
				B(k, "Iw = R * %s * wp.transpose(R)%s", inertia, arm);
			} else {
				/* about a point off the centre of mass (the parallel
				 * axis theorem), the body's mass tuned, the point one
				 * for all or one per body; or an inertia given about
				 * that point moved back to the centre of mass */
				const char *off =
					chance(g, 65)
						? kit_scalar(k, ONE(g, "offset", "pivot", "com_offset"), "wp.vec3")
						: F(k, "%s[%s]",
						    kit_arr(k, ONE(g, "offset", "pivot", "com_offset"), "wp.vec3",
							    1),
						    t);
				B(k, "d = wp.quat_rotate(r, %s)", off);
				const char *m = kit_num(k, 0.02, 0.8);
				int back = chance(g, 30);
				if (chance(g, 40)) {
					/* the same term through the cross-product matrix:
					 * -[d]x^2 = |d|^2 I - d d^T */
					B(k, "S = wp.skew(d)");
					B(k, "Iw = R * %s * wp.transpose(R) %s %s * S * S%s", inertia,
					  back ? "+" : "-", m, arm);
				} else {
					B(k,
					  "Iw = R * %s * wp.transpose(R) %s %s * (wp.dot(d, d) * wp.identity(n=3, dtype=float) - wp.outer(d, d))%s",
					  inertia, back ? "-" : "+", m, arm);
				}
			}
			B(k, "%s[%s] = Iw", o, t);
			int inv = chance(g, 35);
			if (inv) {
				/* the inverse inertia too, the body's given */
				const char *ii = kit_arr(k, ONE(g, "inv_inertia", "body_inv_I", "inv_I_body"),
							 "wp.mat33", 1);
				const char *io =
					kit_arr(k, ONE(g, "inv_inertia_world", "inv_I_world", "world_inv_inertia"),
						"wp.mat33", 1);
				B(k, "Iw_inv = R * %s[%s] * wp.transpose(R)", ii, t);
				B(k, "%s[%s] = Iw_inv", io, t);
			}
			if (inv && chance(g, 40)) {
				/* the spin recovered from a world angular momentum (an
				 * integrator that carries L), maybe its kinetic energy */
				B(k, "L = %s[%s]",
				  kit_arr(k, ONE(g, "L_world", "ang_momentum", "momentum"), "wp.vec3", 1), t);
				B(k, "w = Iw_inv * L");
				B(k, "%s[%s] = w",
				  kit_arr(k, ONE(g, "omega_world", "w_world", "spin_world"), "wp.vec3", 1), t);
				if (chance(g, 50))
					B(k, "%s[%s] = 0.5 * wp.dot(w, L)",
					  kit_arr(k, ONE(g, "ke_rot", "spin_energy", "rot_energy"), "float", 1), t);
			} else if (chance(g, 50)) {
				/* the angular momentum of a spin in the body frame or
				 * the world's, and maybe its kinetic energy */
				const char *wb = kit_arr(k, ONE(g, "omega_body", "w_local", "spin"), "wp.vec3", 1);
				const char *L =
					kit_arr(k, ONE(g, "L_world", "ang_momentum", "momentum"), "wp.vec3", 1);
				if (chance(g, 65))
					B(k, "w = wp.quat_rotate(r, %s[%s])", wb, t);
				else
					B(k, "w = %s[%s]", wb, t);
				B(k, "L = Iw * w");
				B(k, "%s[%s] = L", L, t);
				if (chance(g, 30))
					/* the gyroscopic torque, w x L, that an explicit
					 * step of the spin subtracts */
					B(k, "%s[%s] = wp.cross(w, L)",
					  kit_arr(k, ONE(g, "gyro", "tau_gyro", "gyroscopic"), "wp.vec3", 1), t);
				int ke = rnd(g, 5);
				if (ke == 1)
					B(k, "%s[%s] = 0.5 * wp.dot(w, L)",
					  kit_arr(k, ONE(g, "ke_rot", "spin_energy", "rot_energy"), "float", 1), t);
				else if (ke == 2)
					B(k, "wp.atomic_add(%s, 0, 0.5 * wp.dot(w, L))",
					  kit_arr(k, ONE(g, "ke_total", "kinetic", "energy"), "float", 1));
			}
		} else {
			const char *dir = kit_arr(k, ONE(g, "local_dir", "axes", "body_dirs"), "wp.vec3", 1);
			const char *o = kit_arr(k, ONE(g, "world_dir", "dirs_out", "axes_world"), "wp.vec3", 1);
			/* into the world frame, or into the body's (a world
			 * direction seen from the body) */
			int inv = chance(g, 30);
			/* a spin about an axis, in the world after the body's
			 * rotation, or in the body's frame before it (a rotor
			 * turning on the body) */
			int spun = chance(g, 70);
			int local = spun && !inv && chance(g, 30);
			const char *spin = 0;
			if (spun) {
				const char *ang = kit_arr(k, ONE(g, "angle", "theta", "spin_angle"), "float", 1);
				const char *axis =
					chance(g, 70)
						? kit_scalar(k, ONE(g, "axis", "spin_axis", "hinge"), "wp.vec3")
						: F(k, "%s[%s]",
						    kit_arr(k, ONE(g, "axis", "spin_axis", "hinge"), "wp.vec3", 1),
						    t);
				const char *th =
					chance(g, 50)
						? F(k, "%s[%s]", ang, t)
						: F(k, "%s[%s] * %s", ang, t,
						    kit_coef(k, ONE(g, "rate", "gain", "spin_rate"), 0.5, 3.0));
				spin = F(k, "spin = wp.quat_from_axis_angle(wp.normalize(%s), %s)", axis, th);
			}
			if (local) {
				B(k, "%s", spin);
				B(k, "d = wp.quat_rotate(r * spin, %s[%s])", dir, t);
			} else {
				if (chance(g, 25))
					B(k, "d = %swp.quat_to_matrix(r)%s * %s[%s]", inv ? "wp.transpose(" : "",
					  inv ? ")" : "", dir, t);
				else
					B(k, "d = %s(r, %s[%s])", inv ? "wp.quat_rotate_inv" : "wp.quat_rotate",
					  dir, t);
				if (spin) {
					B(k, "%s", spin);
					B(k, "d = wp.quat_rotate(spin, d)");
				}
			}
			static const int ow[] = {1, 3, 48, 48};
			int out = wpick(g, ow, 4);
			if (out == 0)
				B(k, "%s[%s] = wp.quat_rotate_inv(r, d) + d", o, t);
			else if (out == 1)
				B(k, "%s[%s] = d", o, t);
			else if (out == 2)
				B(k, "%s[%s] = %s", o, t, kit_prod(k, "d", kit_response(k, "d[1]")));
			else {
				const char *up = kit_scalar(k, ONE(g, "up", "bias_dir", "target_dir"), "wp.vec3");
				B(k, "%s[%s] = wp.normalize(d + %s * %s)", o, t, kit_num(k, 0.02, 0.8), up);
			}
			if (chance(g, 35)) {
				/* how far the direction leans along a reference axis
				 * (an upright test), one for all or one per body */
				const char *ax =
					chance(g, 60) ? kit_scalar(k, ONE(g, "ref_axis", "world_up", "vertical"),
								   "wp.vec3")
						      : F(k, "%s[%s]",
							  kit_arr(k, ONE(g, "ref_axis", "target_axis", "goal_dir"),
								  "wp.vec3", 1),
							  t);
				B(k, "%s[%s] = wp.dot(d, %s)",
				  kit_arr(k, ONE(g, "tilt", "lean", "alignment"), "float", 1), t, ax);
			}
		}
		kit_end(k, ONE(g, "rotate_frames", "world_inertia", "orient"));
		return;
	}
	/* relative transforms between joint parents and children */
	const char *q = kit_arr(k, ONE(g, "body_q", "poses"), "wp.transform", 1);
	const char *par = kit_arr(k, ONE(g, "joint_parent", "parent", "parents"), "int", 1);
	/* the joint's frames in its parent and in its child, when given */
	const char *jp =
		chance(g, 40) ? kit_arr(k, ONE(g, "joint_X_p", "parent_frame", "X_pj"), "wp.transform", 1) : 0;
	const char *jc =
		chance(g, 40) ? kit_arr(k, ONE(g, "joint_X_c", "child_frame", "X_cj"), "wp.transform", 1) : 0;
	kit_tid_line(k, 1, t, 0);
	COV(g, type_transform);
	if (jp)
		B(k, "X_p = wp.transform_multiply(%s[%s[%s]], %s[%s])", q, par, t, jp, t);
	else
		B(k, "X_p = %s[%s[%s]]", q, par, t);
	if (jc)
		B(k, "X_c = wp.transform_multiply(%s[%s], %s[%s])", q, t, jc, t);
	else
		B(k, "X_c = %s[%s]", q, t);
	B(k, "X_rel = wp.transform_multiply(wp.transform_inverse(X_p), X_c)");
	/* the relative pose as a transform, or as a rotation and an offset;
	 * the joint's anchor in the world beside */
	if (chance(g, 70)) {
		B(k, "%s[%s] = X_rel", kit_arr(k, ONE(g, "joint_q", "rel_pose", "local_pose"), "wp.transform", 1),
		  t);
	} else {
		COV(g, type_quat);
		B(k, "%s[%s] = wp.transform_get_rotation(X_rel)",
		  kit_arr(k, ONE(g, "joint_rot", "rel_rot", "local_rot"), "wp.quat", 1), t);
		B(k, "%s[%s] = wp.transform_get_translation(X_rel)",
		  kit_arr(k, ONE(g, "joint_pos", "rel_pos", "local_pos"), "wp.vec3", 1), t);
	}
	if (chance(g, 25))
		B(k, "%s[%s] = wp.transform_get_translation(X_p)",
		  kit_arr(k, ONE(g, "joint_anchor", "anchor_world", "pivot_world"), "wp.vec3", 1), t);
	{
		/* the joint's error: its offset (from a target per joint or
		 * none), the sine of half its angle and its offset, or its
		 * twist about the joint axis; written per joint, or summed as
		 * a stiffness-weighted energy */
		const char *err;
		switch (rnd(g, 5)) {
		case 0:
			if (chance(g, 40))
				/* the joint frames' separation, measured in the world */
				B(k,
				  "dx = wp.length(wp.transform_get_translation(X_c) - wp.transform_get_translation(X_p))");
			else
				B(k, "dx = wp.length(wp.transform_get_translation(X_rel))");
			err = kit_response(k, "dx");
			break;
		case 1:
			B(k, "dx = wp.length(wp.transform_get_translation(X_rel) - %s[%s])",
			  kit_arr(k, ONE(g, "joint_target", "target_pos", "rest_offset"), "wp.vec3", 1), t);
			err = kit_response(k, "dx");
			break;
		case 2: {
			B(k, "r = wp.transform_get_rotation(X_rel)");
			const char *wr = kit_num_not(k, 0.5, 2.0, "1.0");
			err = F(k,
				"%s * wp.length(wp.vec3(r[0], r[1], r[2])) + %s * wp.length(wp.transform_get_translation(X_rel))",
				wr, kit_num_not(k, 0.05, 2.0, "1.0"));
			break;
		}
		default: {
			const char *ax =
				chance(g, 60)
					? kit_scalar(k, ONE(g, "joint_axis", "axis", "hinge"), "wp.vec3")
					: F(k, "%s[%s]",
					    kit_arr(k, ONE(g, "joint_axis", "axis", "hinge"), "wp.vec3", 1), t);
			B(k, "r = wp.transform_get_rotation(X_rel)");
			B(k, "twist = wp.dot(wp.vec3(r[0], r[1], r[2]), %s)", ax);
			err = kit_response(k, "twist");
			break;
		}
		case 4: {
			/* the distance of the relative rotation from a target's,
			 * 1 - <r, q>^2: zero at either sign of the target */
			const char *qt =
				chance(g, 60)
					? F(k, "%s[%s]",
					    kit_arr(k, ONE(g, "target_rot", "joint_target_q", "rest_rot"),
						    "wp.quat", 1),
					    t)
					: kit_scalar(k, ONE(g, "target_rot", "q_target", "rest_rot"), "wp.quat");
			B(k, "r = wp.transform_get_rotation(X_rel)");
			B(k, "c = wp.dot(r, wp.normalize(%s))", qt);
			B(k, "dq = 1.0 - c * c");
			err = kit_response(k, "dq");
			break;
		}
		}
		if (chance(g, 30)) {
			const char *ke = kit_coef(k, ONE(g, "joint_ke", "ke", "stiffness"), 0.5, 5.0);
			B(k, "e = %s", err);
			err = "e";
			B(k, "wp.atomic_add(%s, 0, %s)",
			  kit_arr(k, ONE(g, "energy", "joint_energy", "pe"), "float", 1),
			  kit_prod(k, kit_times(k, 0.5, ke), F(k, "%s * %s", err, err)));
		} else {
			B(k, "%s[%s] = %s", kit_arr(k, ONE(g, "joint_err", "offsets", "drift"), "float", 1), t,
			  err);
		}
	}
	kit_end(k, ONE(g, "joint_transforms", "relative_pose", "eval_joints"));
}
