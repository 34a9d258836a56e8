"""A sandbox computes with one BLAS thread: its CPU ceiling counts every thread's time, and the other workers
need the other cores (passk.web.ceiling.one_blas_thread)."""

from flask import Flask, jsonify
from threadpoolctl import threadpool_info
from werkzeug.test import Client

from passk.limits import LIMITS
from passk.web.ceiling import Ceiling


def test_a_sandbox_runs_numpys_blas_on_one_thread():
    app = Flask(__name__)

    @app.get("/threads")
    def threads():
        import numpy as np
        np.linalg.eigh(np.eye(4))   # LAPACK loaded and used, as the curves' eigensolver uses it
        return jsonify(sorted({pool["internal_api"]: pool["num_threads"] for pool in threadpool_info()}.items()))

    ceiling = Ceiling(app, LIMITS)
    try:
        answer = Client(ceiling).get("/threads")
    finally:
        ceiling.close()
    pools = dict(answer.get_json())
    assert pools and set(pools.values()) == {1}, pools
