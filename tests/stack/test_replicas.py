"""Two replicas behind HAProxy (deploy/replicas.py, smaller): share links cross replicas, one may stop mid-run.

Skipped without HAProxy or nginx; scripts/test.sh installs Debian's packages.
The Dockerfile, which cannot be built here, is checked by deploy/check_image.py.
"""

import pytest

from deploy.check_image import simulate, simulation_problems, simulation_unavailable, static_problems
from deploy.replicas import Balancer, Load, benchmark_results, make_requests, share_across
from deploy.stack import ProductionStack, find_executable

NO_SIMULATION = simulation_unavailable()
needs_balancer = pytest.mark.skipif(
    not (find_executable("haproxy") and find_executable("nginx")),
    reason="needs HAProxy and nginx (Debian: apt-get install haproxy nginx); scripts/test.sh installs them")


@pytest.fixture
def replicas():
    """Replicas A and B (two workers each) and HAProxy in front of both."""
    started = []
    try:
        for _ in range(2):
            started.append(ProductionStack(workers=2).start())
        balancer = Balancer(find_executable("haproxy"), [replica.port for replica in started]).start()
    except Exception:
        for replica in started:
            replica.close()
        raise
    yield started[0], started[1], balancer
    balancer.stop()
    for replica in started:
        replica.close()


@needs_balancer
def test_share_link_made_on_one_replica_opens_on_the_other(replicas):
    a, b, balancer = replicas
    path, table, same = share_across(a.port, [b.port, balancer.port])
    assert path.startswith("/benchmark?counts=") and "pass@10" in table
    assert same == {b.port: True, balancer.port: True}


@needs_balancer
def test_stopping_a_replica_mid_run_fails_no_request(replicas):
    a, b, balancer = replicas
    path, table, _ = share_across(b.port, [])
    benchmark = benchmark_results(b.port)
    load = Load(balancer.port, make_requests(400, path, table, benchmark), clients=4)
    load.run([(100, lambda: load.during("A stopping", a.stop, then="A stopped"))], timeout=60)
    # Straight after the stop: HAProxy learns of it from a refused connection or its checks.
    after = Load(balancer.port, make_requests(200, path, table, benchmark, seed=7), clients=4, phase="A stopped")
    after.run(timeout=60)

    assert load.failures == [] and after.failures == []
    assert load.answered() == 400 and after.answered() == 200
    assert load.split["both up"]["a"] > 0 and load.split["both up"]["b"] > 0
    assert after.split["A stopped"] == {"b": 200}
    assert a.process.returncode == 0   # stopped by SIGTERM, not killed


def test_dockerfile_copies_everything_its_command_needs():
    assert static_problems() == []


@pytest.mark.skipif(NO_SIMULATION is not None, reason=f"the image's command as another user: {NO_SIMULATION}")
def test_image_command_serves_as_an_unprivileged_user():
    report = simulate(timeout=60)
    assert simulation_problems(report) == [], report["log"]
    assert report["users"] == {"nobody"}
