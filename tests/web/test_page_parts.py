"""The calculator page's parts built once per process (the "learn" section, the chart's grid and legend, the
links every page has) are what a fresh render gives, and its three links are what url_for writes."""

import re

import pytest
from flask import url_for
from jinja2 import Environment, FileSystemLoader
from where import ROOT

from passk.results.calculator import calculate
from passk.writing.charts import CURVE_PLOT, CURVE_Y_TICKS, curve_chart
from passk.web.addresses import public_url
from passk.web.pages import LEARN_HERE, calculation_links
from passk.web.query import read_query

TEMPLATES = ROOT / "passk" / "web" / "templates"
CALCULATIONS = ["/?n=10&c=3&k=5", "/?n=1&c=1&k=1", "/?n=200&c=57&k=10&ks=2,20,50",
                "/?n=1000000000000&c=1000000&k=1000000"]


def fresh_learn_section():
    """_learn.html rendered by a Jinja of its own, with nothing kept from the app."""
    return Environment(loader=FileSystemLoader(TEMPLATES), autoescape=True).get_template("_learn.html").render()


@pytest.mark.parametrize("address", [*CALCULATIONS, "/", "/?n=10&c=30&k=5"])
def test_the_learn_section_is_a_fresh_render_once_on_every_page(client, address):
    response = client.get(address)
    page = response.get_data(as_text=True)
    assert page.count(fresh_learn_section()) == 1
    assert LEARN_HERE not in page and "\x00" not in page
    assert response.headers["Content-Length"] == str(len(response.get_data()))
    assert response.content_type == "text/html; charset=utf-8"


def test_the_learn_section_is_the_same_on_a_second_page(client):
    first, second = (client.get(address).get_data(as_text=True) for address in ("/?n=10&c=3&k=5", "/?n=7&c=2&k=3"))
    assert first.split('<section id="learn"')[1] == second.split('<section id="learn"')[1]


@pytest.mark.parametrize("address", CALCULATIONS)
def test_the_chart_grid_and_legend_are_those_of_each_calculations_own_chart(app, client, address):
    """The grid and legend are drawn once; each chart's own frame (charts.curve_chart) is the same one."""
    query = read_query({name: [value] for name, value in re.findall(r"(\w+)=([^&]+)", address)})
    chart = curve_chart(calculate(*(query.values[name] for name in ("n", "c", "k"))))
    assert (chart.plot, chart.y_ticks) == (CURVE_PLOT, list(CURVE_Y_TICKS))
    macros = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=True).get_template(
        "_curve_chart_parts.html").module
    page = client.get(address).get_data(as_text=True)
    figure = page[page.index('<figure class="chart" id="curve-chart">'):page.index("</figure>")]
    assert str(macros.grid(chart.plot, chart.y_ticks)) in figure
    assert str(macros.legend()) in figure
    for tick in chart.y_ticks:   # the grid's labels, as the page writes a label
        assert f'<text class="tick" x="{tick.x}" y="{tick.y}" dy="{tick.dy}em" text-anchor="end">{tick.text}</text>' \
            in figure


def test_the_legend_names_the_two_curves_and_the_marker(client):
    page = client.get("/?n=10&c=3&k=5").get_data(as_text=True)
    legend = page[page.index('<ul class="chart-legend">'):page.index("</ul>", page.index('<ul class="chart-legend">'))]
    assert [name for name in re.findall(r"</span>([^<]+)</li>", legend)] == [
        "pass@k", "biased 1 − (1 − c/n)ᵏ", "the chosen k"]


@pytest.mark.parametrize("config, base", [({}, ""), ({"PUBLIC_URL": "https://passk.example.org/"}, ""),
                                          ({"PUBLIC_URL": "https://example.org/tools/passk"}, ""),
                                          ({}, "/passk")])
@pytest.mark.parametrize("address", CALCULATIONS)
def test_a_calculations_links_are_those_url_for_writes(app, config, base, address):
    app.config.update(config)
    with app.test_request_context(base + address, base_url=f"http://localhost{base}"):
        query = read_query({name: [value] for name, value in re.findall(r"(\w+)=([^&]+)", address)})
        params = query.link_params()
        assert calculation_links(query) == (public_url("pages.index", **params),
                                            public_url("pages.embed", **params, theme="auto"),
                                            url_for("api.pass_at_k", **params))


def test_every_page_links_its_fingerprinted_files_and_the_calculator(client):
    for address in ("/?n=10&c=3&k=5", "/embed?n=10&c=3&k=5", "/benchmark", "/compare", "/no-such-page"):
        page = client.get(address).get_data(as_text=True)
        assert re.search(r'<link rel="stylesheet" href="/static/style.css\?v=[0-9a-f]{12}">', page), address
        assert re.search(r'<script src="/static/app.js\?v=[0-9a-f]{12}" defer></script>', page), address
    assert 'action="/embed"' in client.get("/embed?n=10&c=3&k=5").get_data(as_text=True)
    assert 'action="/"' in client.get("/?n=10&c=3&k=5").get_data(as_text=True)


@pytest.mark.parametrize("field", ["n", "c", "k", "ks"])
def test_the_form_escapes_what_was_typed_in_its_box_and_in_its_error(client, field):
    typed = '"><b>x</b>'
    response = client.get("/", query_string={"n": "10", "c": "3", "k": "5", field: typed})
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    form = page[page.index('<form id="calculator"'):page.index("</form>")]
    assert "<b>" not in form
    assert f'value="&#34;&gt;&lt;b&gt;x&lt;/b&gt;"' in form
    assert re.search(rf'<p class="field-error" id="{field}-error" role="alert">[^<]*&lt;b&gt;x', form)
    for other in {"n", "c", "k", "ks"} - {field}:
        assert f'<p class="field-error" id="{other}-error" role="alert" hidden></p>' in form
