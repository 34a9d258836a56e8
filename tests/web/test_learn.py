"""The "learn" section: its numbers are exact, its markup is clean, its links compute what it says."""

import math
import re
from fractions import Fraction
from html.parser import HTMLParser

import pytest
from jinja2 import Environment, FileSystemLoader
from where import ROOT

TEMPLATES = ROOT / "passk" / "web" / "templates"
VOID_ELEMENTS = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                 "source", "track", "wbr"}
ARXIV_IDS = ["2107.03374", "1906.04908", "2406.12045"]


def exact_pass_at_k(n, c, k):
    """1 - C(n-c, k)/C(n, k) as a Fraction: the oracle for every number in the prose."""
    return 1 - Fraction(math.comb(n - c, k), math.comb(n, k))


def exact_pass_hat_k(n, c, k):
    """C(c, k)/C(n, k) as a Fraction."""
    return Fraction(math.comb(c, k), math.comb(n, k))


def percent(value):
    """A Fraction as the page writes it: two decimals, trailing zeros dropped ('30%', '91.67%')."""
    text = f"{float(value) * 100:.2f}".rstrip("0").rstrip(".")
    return f"{text}%"


# (link, problems as (n, c), k, the result the example states)
EXAMPLES = [
    ("/?n=10&c=3&k=1", [(10, 3)], 1, "30%"),
    ("/?n=10&c=3&k=5", [(10, 3)], 5, "91.67%"),
    ("/?n=5&c=0&k=1", [(5, 0)], 1, "0%"),
    ("/benchmark?counts=10:3,10:0&k=5", [(10, 3), (10, 0)], 5, "45.83%"),
]
SINGLE_PROBLEM_EXAMPLES = [example for example in EXAMPLES if example[0].startswith("/?")]


class Node:
    """One element of a parsed page: tag, attributes, children and text in order."""

    def __init__(self, tag, attrs):
        self.tag, self.attrs, self.children = tag, dict(attrs), []

    def text(self):
        return "".join(child if isinstance(child, str) else child.text() for child in self.children)

    def walk(self):
        yield self
        for child in self.children:
            if isinstance(child, Node):
                yield from child.walk()

    def classes(self):
        return (self.attrs.get("class") or "").split()


class TreeBuilder(HTMLParser):
    """Builds a Node tree and records every end tag that does not close the open element."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", [])
        self.open = [self.root]
        self.mismatches = []
        self.start_tags = []

    def handle_starttag(self, tag, attrs):
        node = Node(tag, attrs)
        self.start_tags.append((tag, attrs))
        self.open[-1].children.append(node)
        if tag not in VOID_ELEMENTS:
            self.open.append(node)

    def handle_startendtag(self, tag, attrs):
        self.start_tags.append((tag, attrs))
        self.open[-1].children.append(Node(tag, attrs))

    def handle_endtag(self, tag):
        if tag in VOID_ELEMENTS:
            return
        if self.open[-1].tag != tag:
            self.mismatches.append((tag, self.getpos()))
            if not any(node.tag == tag for node in self.open[1:]):
                return
        while self.open[-1].tag != tag:
            self.open.pop()
        self.open.pop()

    def handle_data(self, data):
        self.open[-1].children.append(data)


def parse(html):
    builder = TreeBuilder()
    builder.feed(html)
    builder.close()
    return builder


def find_by_id(root, element_id):
    return next((node for node in root.walk() if node.attrs.get("id") == element_id), None)


@pytest.fixture(scope="module")
def learn_html():
    return Environment(loader=FileSystemLoader(TEMPLATES)).get_template("_learn.html").render()


@pytest.fixture(scope="module")
def learn(learn_html):
    return parse(learn_html)


# --- the numbers in the prose, checked with exact arithmetic ---------------------------------

@pytest.mark.parametrize("link, problems, k, stated", EXAMPLES)
def test_example_result_is_the_exact_mean_of_its_problems(link, problems, k, stated):
    mean = sum(exact_pass_at_k(n, c, k) for n, c in problems) / len(problems)
    assert percent(mean) == stated


def test_pass_at_5_example_fractions():
    assert Fraction(math.comb(7, 5), math.comb(10, 5)) == Fraction(21, 252) == Fraction(1, 12)
    assert Fraction(3, 8) * Fraction(4, 9) * Fraction(1, 2) == Fraction(1, 12)
    assert exact_pass_at_k(10, 3, 5) == Fraction(11, 12)


def test_pass_at_1_example_product_telescopes_to_c_over_n():
    product = Fraction(7, 8) * Fraction(8, 9) * Fraction(9, 10)
    assert 1 - product == exact_pass_at_k(10, 3, 1) == Fraction(3, 10)


def test_benchmark_example_is_eleven_24ths():
    assert (exact_pass_at_k(10, 3, 5) + exact_pass_at_k(10, 0, 5)) / 2 == Fraction(11, 24)


def test_biased_estimate_is_lower_than_the_unbiased_one(learn):
    biased = 1 - (1 - Fraction(3, 10)) ** 5
    assert percent(biased) == "83.19%"
    assert biased < exact_pass_at_k(10, 3, 5)
    assert "83.19%" in learn.root.text()


def test_pass_at_k_versus_pass_hat_k_numbers(learn):
    assert exact_pass_at_k(10, 3, 2) == 1 - Fraction(21, 45) == Fraction(8, 15)
    assert exact_pass_hat_k(10, 3, 2) == Fraction(3, 45) == Fraction(1, 15)
    text = learn.root.text()
    for stated in (percent(Fraction(8, 15)), percent(Fraction(1, 15))):
        assert stated in text


def test_flaky_problem_retry_numbers(learn):
    assert percent(exact_pass_at_k(10, 1, 1)) == "10%"
    assert percent(exact_pass_at_k(10, 1, 5)) == "50%"
    faq = next(node for node in learn.root.walk() if "faq" in node.classes())
    assert "pass@1 is 10% but pass@5 is 50%" in " ".join(faq.text().split())


def test_binomial_size_claim():
    assert len(str(math.comb(200, 100))) == 59


# --- the markup -----------------------------------------------------------------------------

def test_partial_is_well_nested_html(learn):
    assert learn.mismatches == []
    assert [node.tag for node in learn.open] == ["#root"], "some elements are never closed"


def test_learn_section_is_labelled_by_its_heading(learn):
    section = find_by_id(learn.root, "learn")
    assert section is not None and section.tag == "section"
    heading = find_by_id(learn.root, section.attrs["aria-labelledby"])
    assert heading is not None and heading.tag == "h2"


def test_no_inline_style_script_or_handlers(learn_html, learn):
    assert "style=" not in learn_html.lower()
    assert "<script" not in learn_html.lower()
    assert "<style" not in learn_html.lower()
    assert not re.search(r"\son[a-z]+\s*=", learn_html, re.IGNORECASE)
    for tag, attrs in learn.start_tags:
        assert tag not in {"script", "style", "img", "iframe", "link", "object", "embed"}
        assert not any(name.startswith("on") or name == "style" for name, _ in attrs)


def test_no_resource_is_loaded_from_another_host(learn):
    for tag, attrs in learn.start_tags:
        assert not any(name in {"src", "srcset", "data", "poster"} for name, _ in attrs), tag


@pytest.mark.parametrize("arxiv_id", ARXIV_IDS)
def test_every_source_is_cited_and_linked(learn, arxiv_id):
    links = [node.attrs.get("href") for node in learn.root.walk() if node.tag == "a"]
    assert f"https://arxiv.org/abs/{arxiv_id}" in links
    assert f"arXiv:{arxiv_id}" in learn.root.text()


def test_reference_harness_is_named(learn):
    text = learn.root.text()
    assert "openai/human-eval" in text and "evaluate_functional_correctness" in text


@pytest.mark.parametrize("link, problems, k, stated", EXAMPLES)
def test_each_example_links_to_its_calculation_and_states_its_result(learn, link, problems, k, stated):
    examples = [node for node in learn.root.walk() if node.tag == "article" and "example" in node.classes()]
    matching = [node for node in examples
                if link in (a.attrs.get("href") for a in node.walk() if a.tag == "a")]
    assert len(matching) == 1, f"no single example links to {link}"
    steps = [node for node in matching[0].walk() if node.tag == "ol" and "steps" in node.classes()]
    assert steps, "each example shows its steps"
    assert stated in [node.text() for node in matching[0].walk() if node.tag == "strong"]


def test_there_are_four_examples(learn):
    examples = [node for node in learn.root.walk() if node.tag == "article" and "example" in node.classes()]
    assert len(examples) == 4


def test_faq_works_without_javascript(learn):
    questions = [node for node in learn.root.walk() if node.tag == "details"]
    assert len(questions) == 6
    for question in questions:
        summaries = [child for child in question.children if isinstance(child, Node) and child.tag == "summary"]
        assert len(summaries) == 1 and summaries[0].text().strip()


# --- on the calculator page -----------------------------------------------------------------

@pytest.fixture(scope="module")
def client():
    from app import create_app

    return create_app({"TESTING": True}).test_client()


def headline_percent(page_html):
    """The number in the page's #pass-at-k element, as written (e.g. '91.67')."""
    headline = find_by_id(parse(page_html).root, "pass-at-k")
    assert headline is not None, "the page has no #pass-at-k element"
    match = re.search(r"(\d+(?:\.\d+)?)\s*%", headline.text())
    assert match, f"no percentage in the headline: {headline.text()!r}"
    return match.group(1)


def agrees_when_rounded(shown, exact):
    """True when the page's number is the exact value rounded to the places the page shows."""
    places = len(shown.partition(".")[2])
    return Fraction(shown) == Fraction(round(exact * 100, places))


@pytest.mark.parametrize("link, problems, k, stated", SINGLE_PROBLEM_EXAMPLES)
def test_example_link_computes_the_stated_result(client, link, problems, k, stated):
    response = client.get(link)
    assert response.status_code == 200
    shown = headline_percent(response.get_data(as_text=True))
    (n, c), = problems
    assert agrees_when_rounded(shown, exact_pass_at_k(n, c, k))
    assert agrees_when_rounded(stated.rstrip("%"), exact_pass_at_k(n, c, k))


def test_benchmark_example_link_computes_the_stated_result(client):
    link, problems, k, stated = EXAMPLES[-1]
    response = client.get(link)
    assert response.status_code == 200
    assert stated in response.get_data(as_text=True)


@pytest.mark.parametrize("link", ["/", "/?n=10&c=3&k=5", "/?n=10&c=3&k=11"])
def test_learn_section_is_on_the_calculator_page(client, link):
    page = parse(client.get(link).get_data(as_text=True))
    section = find_by_id(page.root, "learn")
    assert section is not None and section.tag == "section"
    main = next(node for node in page.root.walk() if node.tag == "main")
    assert any(node is section for node in main.walk()), "the learn section sits inside <main>"
    assert "Worked examples" in section.text()
