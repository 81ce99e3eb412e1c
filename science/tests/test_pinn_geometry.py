"""Geometries, samplers and conditions: points land where they should; points outside a
geometry are named errors."""
import numpy as np
import pytest

from sporeling.science.pinn import (SAMPLERS, DirichletBC, Disk, GeometryError,
                                    InitialCondition, Interval, PointCondition, Polygon,
                                    Rectangle, TimeDomain, l_shape, sample_unit)

GEOMETRIES = [Interval(-1, 2), Rectangle((0, -1), (2, 1)), Disk((1, 1), 0.5), l_shape(),
              TimeDomain(Interval(-1, 1), 0, 1), TimeDomain(l_shape(), 0, 2)]


@pytest.mark.parametrize("method", SAMPLERS)
def test_unit_samplers_fill_the_cube(method):
    p = sample_unit(256, 3, method, seed=0)
    assert p.shape == (256, 3) and p.min() >= 0 and p.max() < 1
    # every tenth of every axis gets points (Latin hypercube and Sobol: evenly)
    counts = np.stack([np.histogram(p[:, k], bins=10, range=(0, 1))[0] for k in range(3)])
    assert counts.min() > 0
    if method != "uniform":
        assert counts.max() - counts.min() <= 4


def test_samplers_are_reproducible_and_distinct():
    a, b = sample_unit(64, 2, "sobol", seed=3), sample_unit(64, 2, "sobol", seed=3)
    np.testing.assert_array_equal(a, b)
    assert not np.allclose(a, sample_unit(64, 2, "sobol", seed=4))


@pytest.mark.parametrize("geometry", GEOMETRIES, ids=repr)
@pytest.mark.parametrize("method", SAMPLERS)
def test_interior_and_boundary_samples_lie_where_they_should(geometry, method):
    inner = geometry.sample_interior(200, method, seed=1)
    assert inner.shape == (200, geometry.dim)
    assert geometry.inside(inner).all()
    edge = geometry.sample_boundary(50, method, seed=2)
    assert edge.shape == (50, geometry.dim)
    assert geometry.on_boundary(edge, tol=1e-9).all()
    assert geometry.inside(edge).all()


def test_l_shape_excludes_the_cut_out_quadrant():
    L = l_shape()
    assert L.area == pytest.approx(3.0)
    assert list(L.inside([[0.5, 0.5], [-0.5, 0.5], [0.5, -0.5], [-0.5, -0.5], [0, 0.5]])) \
        == [False, True, True, True, True]
    p = L.sample_interior(3000, "sobol", seed=0)
    # three equal quadrants: each holds about a third of the points
    for sx, sy in [(-1, 1), (1, -1), (-1, -1)]:
        share = np.mean((np.sign(p[:, 0]) == sx) & (np.sign(p[:, 1]) == sy))
        assert abs(share - 1 / 3) < 0.03
    assert L.on_boundary([[0, 0.5], [0.5, 0], [0.3, 0.2]]).tolist() == [True, True, False]


def test_disk_interior_is_area_uniform():
    p = Disk((0, 0), 1).sample_interior(4000, "lhs", seed=0)
    r = np.linalg.norm(p, axis=1)
    assert abs(np.mean(r < np.sqrt(0.5)) - 0.5) < 0.02  # half the area inside r = 1/sqrt 2


def test_time_domain_slices():
    D = TimeDomain(Rectangle((0, 0), (1, 2)), 0.5, 1.5)
    assert D.names == ("x", "y", "t") and D.dim == 3
    init = D.sample_initial(20, "lhs", seed=0)
    assert np.all(init[:, 2] == 0.5) and D.inside(init).all()
    edge = D.sample_boundary(30, seed=0)
    assert D.space.on_boundary(edge[:, :2]).all()
    assert ((edge[:, 2] >= 0.5) & (edge[:, 2] <= 1.5)).all()


def test_conditions_evaluate_their_values():
    D = TimeDomain(Interval(-1, 1), 0, 1)
    ic = InitialCondition(D, lambda p: -np.sin(np.pi * p[:, 0]), 32, "lhs", seed=0)
    np.testing.assert_allclose(ic.values[:, 0], -np.sin(np.pi * ic.points[:, 0]))
    bc = DirichletBC(D, 0.0, 10)
    assert bc.values.shape == (10, 1) and set(np.abs(bc.points[:, 0])) == {1.0}
    data = PointCondition(D, [[0.0, 0.5], [0.5, 0.25]], [1.0, 2.0])
    assert data.values.tolist() == [[1.0], [2.0]]


def test_points_outside_the_geometry_are_named():
    with pytest.raises(GeometryError) as info:
        l_shape().as_points([[-0.5, -0.5], [0.5, 0.5]], where="my points")
    msg = str(info.value)
    assert "1 of 2 points lie outside" in msg and "point 1 = [0.5, 0.5]" in msg
    assert "my points" in msg and "Polygon" in msg
    with pytest.raises(GeometryError, match=r"expected \(n, 2\) with columns \('x', 't'\)"):
        TimeDomain(Interval(0, 1), 0, 1).as_points(np.zeros((3, 3)))
    with pytest.raises(GeometryError, match="outside"):
        PointCondition(TimeDomain(Interval(0, 1), 0, 1), [[0.5, 1.5]], [0.0], name="obs")


def test_bad_geometries_and_samplers_are_named():
    with pytest.raises(GeometryError, match="a < b"):
        Interval(1, 1)
    with pytest.raises(GeometryError, match="radius > 0"):
        Disk((0, 0), -1)
    with pytest.raises(GeometryError, match="at least three"):
        Polygon([(0, 0), (1, 1)])
    with pytest.raises(GeometryError, match="uniform | lhs | sobol"):
        sample_unit(4, 2, "halton")
    with pytest.raises(GeometryError, match="TimeDomain"):
        InitialCondition(Interval(0, 1), 0.0, 4)
    with pytest.raises(GeometryError, match=r"\(5, 1\)"):
        DirichletBC(Interval(0, 1), np.zeros(3), 5)
