/* passk's single-problem calculator, computed in the browser: no request leaves the page.

   The estimator is passk/maths/estimator.py's, term for term: pass@k = 1 - C(n-c, k)/C(n, k) as
   -expm1(L), L the log of C(n-c, k)/C(n, k), a correctly rounded sum of min(c, k) log terms up
   to SHORT_PRODUCT of them, Stirling's series (log-gamma differences) beyond. Two changes keep
   digits Python's Stirling form loses: when L is small its three log1p terms nearly cancel, so
   their linear parts are summed in closed form first (stirlingSmall: Python's pass@k is off by
   up to about 1e-15 relative there, this one by 3e-16), and log(1 - a/b) with a/b near 1 is taken
   as log((b - a)/b) (logOneLess: Python's pass^k loses up to 1e-7 there).
   The sentences for bad input are the server's (web/query.py); the numbers are written as
   passk/writing/display.py writes them; the chart is passk/writing/charts.py's curve chart.
   Plain ES2015 in a classic script, so that it runs from file:// too. */
(function (root) {
  "use strict";

  // The constants come from the page (a JSON block the export writes from passk's own modules: limits,
  // estimator, calculator, charts), so that the page follows the passk that wrote it; see configure().
  var MAX_N, EXTRA_KS, SHORT_PRODUCT, FALLING_RATIO_MAX_TERMS, TABLE_KS, CHART;
  var DEFAULTS = {n: "10", c: "3", k: "1"};  // web.query.DEFAULTS: the example a link without numbers shows
  var HALF_LOG_2PI = 0.5 * Math.log(2 * Math.PI);
  var SMALL_SHARE = 0.125;              // c/n and k/n up to this take stirlingSmall

  // ---- the estimator -------------------------------------------------------------------

  /* The correctly rounded sum of the values (Shewchuk's exact partials, as Python's math.fsum). */
  function fsum(values) {
    var partials = [];
    values.forEach(function (value) {
      var x = value, kept = 0;
      for (var i = 0; i < partials.length; i++) {
        var y = partials[i];
        if (Math.abs(x) < Math.abs(y)) { var t = x; x = y; y = t; }
        var high = x + y, low = y - (high - x);
        if (low !== 0) partials[kept++] = low;
        x = high;
      }
      partials.length = kept;
      partials.push(x);
    });
    var n = partials.length, high = 0, low = 0;
    if (n > 0) {
      high = partials[--n];
      while (n > 0) {
        var x = high, y = partials[--n];
        high = x + y;
        low = y - (high - x);
        if (low !== 0) break;
      }
      // round half to even across the partials left, as math.fsum does
      if (n > 0 && ((low < 0 && partials[n - 1] < 0) || (low > 0 && partials[n - 1] > 0))) {
        var doubled = low * 2, sum = high + doubled;
        if (doubled === sum - high) high = sum;
      }
    }
    return high;
  }

  var LOG_FACTORIALS = (function () {   // log(x!) for x < 21: x! is exact in a double up to 22!
    var table = [], factorial = 1;
    for (var x = 0; x <= 20; x++) { factorial *= Math.max(x, 1); table.push(Math.log(factorial)); }
    return table;
  }());

  /* s(x) = log x! - [(x + 1/2) log x - x + log(2 pi)/2] for a whole x >= 1. */
  function stirlingRemainder(x) {
    if (x < 20) return LOG_FACTORIALS[x] - ((x + 0.5) * Math.log(x) - x + HALF_LOG_2PI);
    var inv = 1 / x, inv2 = 1 / (x * x);
    return inv * (1 / 12 - inv2 * (1 / 360 - inv2 * (1 / 1260 - inv2 * (1 / 1680 - inv2 / 1188))));
  }

  /* log(1 - a/b) for whole 0 <= a < b: log1p(-a/b), or log((b - a)/b) when a/b is over a half and
     1 - a/b, rounded, would lose the digits (estimator.py's Stirling form keeps log1p there, so its pass^k
     is off by 2e-7 relative at n = 170,499,035,389, c = 703, k = 36). */
  function logOneLess(a, b) { return 2 * a <= b ? Math.log1p(-a / b) : Math.log((b - a) / b); }

  /* log1p(-t) + t for 0 <= t <= SMALL_SHARE, without the cancellation of computing it so. */
  function log1pBeyondLinear(t) {
    var sum = 0, power = t, term;
    for (var m = 2; m < 60; m++) {
      power *= t;
      term = power / m;
      sum += term;
      if (term <= sum * 1e-17) break;
    }
    return -sum;
  }

  /* log C(n-c, k)/C(n, k) by Stirling's series when c/n and k/n are small: the three log1p terms of
     the general form are each about -ck/n, -ck/n and +ck/n, so their linear parts are summed exactly
     in closed form, -(ck/n)(1 + x) + x/2, and only the small rest by series. */
  function stirlingSmall(n, c, k, d) {
    var s = stirlingRemainder;
    var x = (c * k) / ((n - c) * (n - k)), share = (c * k) / n;
    var rest = k * log1pBeyondLinear(c / n) + c * log1pBeyondLinear(k / n) - (d + 0.5) * log1pBeyondLinear(x);
    var remainders = s(n - c) + s(n - k) - s(n) - s(d);
    return fsum([-share, -share * x, x / 2, rest, remainders]);
  }

  /* log C(n-c, k)/C(n, k) for whole numbers with 1 <= c and k <= n - c (estimator._log_complement_one). */
  function logComplement(n, c, k) {
    var m = Math.min(c, k), big = Math.max(c, k);
    if (m <= SHORT_PRODUCT) {
      var terms = [];
      for (var j = n; j > n - m; j--) terms.push(2 * big <= j ? Math.log1p(-big / j) : Math.log((j - big) / j));
      return fsum(terms);
    }
    var d = n - c - k, s = stirlingRemainder;
    if (d > 0 && c <= SMALL_SHARE * n && k <= SMALL_SHARE * n) return stirlingSmall(n, c, k, d);
    var shared = k * logOneLess(c, n) + c * logOneLess(k, n) + s(n - c) + s(n - k) - s(n);
    if (d === 0) return shared + 0.5 * Math.log(c * k / n) + HALF_LOG_2PI;   // the value is 1/C(n, k)
    var x = c * k / ((n - c) * (n - k));   // 1 - x = n d / ((n - c)(n - k)), its own digits when x is near 1
    return shared - (d + 0.5) * (x <= 0.5 ? Math.log1p(-x) : Math.log(n * d / ((n - c) * (n - k)))) - s(d);
  }

  /* pass@k = 1 - C(n-c, k)/C(n, k) for counts already checked (estimator.pass_at_k). */
  function passAtK(n, c, k) {
    if (c === 0) return 0;
    if (n - c < k) return 1;
    if (k === 1 || c === 1) return c * k / n;
    return -Math.expm1(logComplement(n, c, k));
  }

  /* C(n-c, k)/C(n, k), the chance that no drawn sample passes (estimator.miss_chance). */
  function missChance(n, c, k) {
    if (c === 0) return 1;
    if (n - c < k) return 0;
    return Math.exp(logComplement(n, c, k));
  }

  /* pass^k = C(c, k)/C(n, k): every drawn sample passes (estimator.pass_hat_k). */
  function passHatK(n, c, k) { return missChance(n, n - c, k); }

  /* 1 - (1 - c/n)^k, drawing with replacement (estimator.biased_pass_at_k). */
  function biasedPassAtK(n, c, k) {
    if (c === 0 || c === n) return c === n ? 1 : 0;
    return -Math.expm1(k * Math.log1p(-c / n));
  }

  /* The cross-check: 1 - prod_{j<m} (n-M-j)/(n-j), a plain running product (estimator.falling_ratio). */
  function fallingRatio(n, c, k) {
    if (c === 0) return 0;
    if (n - c < k) return 1;
    var m = Math.min(c, k), big = Math.max(c, k);
    if (m > FALLING_RATIO_MAX_TERMS) return null;
    var product = 1;
    for (var j = 0; j < m; j++) product *= (n - big - j) / (n - j);
    return 1 - product;
  }

  /* How many significant decimal digits a and b share, 0 to 16 (estimator.agreeing_digits). */
  function agreeingDigits(a, b) {
    if (a === null || b === null) return null;
    if (a === b) return 16;
    var scale = Math.max(Math.abs(a), Math.abs(b));
    return Math.max(0, Math.min(16, Math.floor(-Math.log10(Math.abs(a - b) / scale))));
  }

  /* The numbers once each, in increasing order. */
  function distinctSorted(values) {
    return values.filter(function (value, i, all) { return all.indexOf(value) === i; })
      .sort(function (a, b) { return a - b; });
  }

  /* Every number the page shows for n, c, k and the extra ks (calculator.calculate). */
  function calculate(n, c, k, extraKs) {
    var ks = distinctSorted(TABLE_KS.concat([k], extraKs || []));
    var table = ks.map(function (row) { return {k: row, passAtK: row <= n ? passAtK(n, c, row) : null}; });
    var value = passAtK(n, c, k), cross = fallingRatio(n, c, k);
    return {
      n: n, c: c, k: k, passAtK: value, passAt1: passAtK(n, c, 1), crossCheck: cross,
      agreeingDigits: agreeingDigits(value, cross), passHatK: passHatK(n, c, k),
      biasedPassAtK: biasedPassAtK(n, c, k), missChance: missChance(n, c, k), table: table
    };
  }

  // ---- numbers written for people (passk/writing/display.py) --------------------------------------

  var SUPERSCRIPT = {"-": "⁻", "0": "⁰", "1": "¹", "2": "²", "3": "³", "4": "⁴", "5": "⁵", "6": "⁶",
                     "7": "⁷", "8": "⁸", "9": "⁹"};

  function superscript(text) { return text.replace(/[-0-9]/g, function (ch) { return SUPERSCRIPT[ch]; }); }

  /* 1,000,000 */
  function count(value) { return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ","); }

  /* value (>= 0) with `places` decimals, rounded half to even from its exact binary value, as Python's
     format does (toFixed rounds a tie up: 0.03125 would be 0.0313, Python writes 0.0312). */
  function fixed(value, places) {
    var exact = value.toFixed(100), point = exact.indexOf(".");
    var digits = exact.slice(0, point) + exact.slice(point + 1, point + 1 + places);
    var rest = exact.slice(point + 1 + places).replace(/0+$/, "");
    var up = rest > "5" || (rest === "5" && "13579".indexOf(digits.charAt(digits.length - 1)) >= 0);
    if (up) {
      var chars = digits.split(""), i = chars.length - 1;
      while (i >= 0 && chars[i] === "9") chars[i--] = "0";
      if (i < 0) chars.unshift("1"); else chars[i] = String(Number(chars[i]) + 1);
      digits = chars.join("");
    }
    var whole = digits.slice(0, digits.length - places).replace(/^0+(?=\d)/, "") || "0";
    return places ? whole + "." + digits.slice(digits.length - places) : whole;
  }

  /* 8.66 × 10⁻¹¹ (display.scientific) */
  function scientific(value) {
    var parts = value.toExponential(2).split("e");
    return parts[0] + " × 10" + superscript(String(Number(parts[1])));
  }

  /* display.decimal: `places` decimals, or scientific when they would hide the value; with top, never top. */
  function decimal(value, places, top) {
    if (value === 0) return "0";
    if (Number(value.toExponential(2)) < Number("1e-" + places)) return scientific(value);
    if (top === undefined) return fixed(value, places);
    for (var shown = places; shown <= 17; shown++) {
      var text = fixed(value, shown);
      if (Number(text) < top) return text;
    }
    return null;
  }

  function percent(value) {
    if (value === null) return "—";
    if (value === 0 || value === 1) return (value * 100).toFixed(0) + "%";
    var text = decimal(value * 100, 2, 100);
    return text === null ? "≈ 100%" : text + "%";
  }

  function passPercent(value, n, c, k) {
    return value === 1 && c > 0 && n - c >= k ? "≈ 100%" : percent(value);
  }

  function fraction(value) {
    if (value === null) return "—";
    if (value === 0 || value === 1) return String(value);
    var text = decimal(value, 4, 1);
    return text === null ? "≈ 1" : text;
  }

  /* repr(float): the shortest digits that read back, in Python's notation (1e-05, 0.0001, 1e+16). */
  function full(value) {
    if (value === null) return "—";
    if (value === 0) return "0.0";
    var parts = value.toExponential().split("e"), digits = parts[0].replace(".", ""), exponent = Number(parts[1]);
    if (exponent < -4 || exponent >= 16) {
      var mantissa = digits.length > 1 ? digits[0] + "." + digits.slice(1) : digits;
      return mantissa + "e" + (exponent < 0 ? "-" : "+") + (Math.abs(exponent) < 10 ? "0" : "") + Math.abs(exponent);
    }
    if (exponent < 0) return "0." + "0".repeat(-exponent - 1) + digits;
    if (digits.length <= exponent + 1) return digits + "0".repeat(exponent + 1 - digits.length) + ".0";
    return digits.slice(0, exponent + 1) + "." + digits.slice(exponent + 1);
  }

  // ---- the form: the server's sentences (web/query.py, page wording) -----------------------

  var NAMES = {n: "n (completions per problem)", c: "c (completions that passed)", k: "k (samples you draw)",
               ks: "Extra k values"};

  /* calculator.printable: control characters replaced, long text cut. */
  function printable(text, limit) {
    limit = limit === undefined ? 40 : limit;
    var chars = Array.from(text.replace(/[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]|(?! )\p{Zs}/gu, "\uFFFD"));
    return chars.length <= limit ? chars.join("") : chars.slice(0, limit).join("") + "…";
  }

  /* str.strip() of a printable() text: the only white space printable() leaves is the plain space */
  function strip(text) { return text.replace(/^ +| +$/g, ""); }

  function number(digits) { return Number(digits.replace(/^0+/, "") || "0"); }

  function tooLarge(digits) {
    var bare = digits.replace(/^0+/, "");
    return bare.length > String(MAX_N).length || number(digits) > MAX_N;
  }

  function readCount(query, name) {
    var text = strip(query.raw[name]);
    if (!text) {
      query.errors[name] = "Enter " + NAMES[name] + ": a whole number.";
    } else if (!/^[0-9]+$/.test(text)) {
      query.errors[name] = NAMES[name] + " must be a whole number written with digits only, like 200; got “" +
        printable(text) + "”.";
    } else if (tooLarge(text)) {
      query.errors[name] = NAMES[name] + " must be at most " + count(MAX_N) + " (10^12); got " + printable(text) + ".";
    } else {
      var value = number(text), low = name === "c" ? 0 : 1;
      if (value < low) query.errors[name] = NAMES[name] + " must be at least " + low + "; got " + count(value) + ".";
      else query.values[name] = value;
    }
  }

  function readExtraKs(query) {
    var parts = strip(query.raw.ks).split(/[ ,]+/).filter(function (part) { return part; });
    var bad = parts.filter(function (part) { return !/^[0-9]+$/.test(part) || tooLarge(part) || !/[1-9]/.test(part); });
    if (parts.length > EXTRA_KS) {
      query.errors.ks = "Give at most " + EXTRA_KS + " extra k values; got " + count(parts.length) + ".";
    } else if (bad.length) {
      query.errors.ks = NAMES.ks + " must be whole numbers from 1 to 10^12, separated by commas; “" +
        printable(bad[0]) + "” is not.";
    } else {
      query.values.ks = distinctSorted(parts.map(number));
    }
  }

  function checkRanges(query) {
    var n = query.values.n, c = query.values.c, k = query.values.k;
    if (n === undefined) return;
    if (c !== undefined && c > n) {
      query.errors.c = "c must be from 0 to n (" + count(n) + "): no more samples can pass than were generated; got " +
        count(c) + ".";
      delete query.values.c;
    }
    if (k !== undefined && k > n) {
      query.errors.k = "k must be from 1 to n (" + count(n) + "): you cannot draw more samples than you " +
        "generated; got " + count(k) + ".";
      delete query.values.k;
    }
  }

  /* web.query.read_query for the page: fields -> list of strings (a link's), or -> string (the form's). */
  function readQuery(fields, fromLink) {
    var query = {raw: {}, values: {}, errors: {}};
    var given = function (name) {
      var values = fields[name] === undefined ? [] : [].concat(fields[name]);
      if (values.length > 1) {
        query.errors[name] = NAMES[name] + " was given " + values.length + " times in the link; give it once.";
      }
      return values.length ? printable(values[0], Infinity) : "";
    };
    if (fromLink && !["n", "c", "k"].some(function (name) { return [].concat(fields[name] || [])[0]; })) {
      query.raw = {n: DEFAULTS.n, c: DEFAULTS.c, k: DEFAULTS.k, ks: given("ks")};
    } else {
      ["n", "c", "k", "ks"].forEach(function (name) { query.raw[name] = given(name); });
    }
    ["n", "c", "k"].forEach(function (name) { if (!query.errors[name]) readCount(query, name); });
    if (!query.errors.ks) readExtraKs(query);
    checkRanges(query);
    return query;
  }

  // ---- the chart (passk/writing/charts.py: curve_chart) ----------------------------------------------

  /* Take passk's constants: {max_n, extra_ks, short_product, falling_ratio_max_terms, table_ks, chart}. */
  function configure(settings) {
    MAX_N = settings.max_n;
    EXTRA_KS = settings.extra_ks;
    SHORT_PRODUCT = settings.short_product;
    FALLING_RATIO_MAX_TERMS = settings.falling_ratio_max_terms;
    TABLE_KS = settings.table_ks;
    CHART = settings.chart;
  }

  function textWidth(text) {
    var ems = Array.from(text).map(function (ch) { return ch in CHART.em ? CHART.em[ch] : CHART.letter_em; });
    return CHART.font * ems.reduce(function (sum, em) { return sum + em; }, 0);
  }

  function label(x, y, text, anchor, dy, css) {
    return {x: x, y: y, text: text, anchor: anchor || "middle", dy: dy || 0, css: css || "tick"};
  }

  function box(item) {
    var width = textWidth(item.text), left = item.x - {start: 0, middle: width / 2, end: width}[item.anchor];
    var baseline = item.y + item.dy * CHART.font;
    return [left, baseline - CHART.ascent * CHART.font, left + width, baseline + CHART.descent * CHART.font];
  }

  function overlap(one, other, clearance) {
    return !(one[2] + clearance <= other[0] || other[2] + clearance <= one[0] || one[3] <= other[1] ||
             other[3] <= one[1]);
  }

  function spaced(labels) {
    var kept = labels.slice(0, 1);
    labels.slice(1, -1).forEach(function (item) {
      if (!overlap(box(kept[kept.length - 1]), box(item), 4)) kept.push(item);
    });
    if (labels.length > 1) {
      var last = labels[labels.length - 1];
      while (kept.length > 1 && overlap(box(kept[kept.length - 1]), box(last), 4)) kept.pop();
      kept.push(last);
    }
    return kept;
  }

  function axisTicks(values) {
    var powers = values.map(function (value) {
      var power = String(value).length - 1;
      return value >= 1 && value === Math.pow(10, power) ? power : null;
    });
    if (Math.max.apply(null, values) < 1e6 || powers.indexOf(null) >= 0) return values.map(count);
    return powers.map(function (power) { return "10" + superscript(String(power)); });
  }

  /* round(value, 1) as Python rounds (half to even, from the exact binary value), for coordinates >= 0 */
  function tenths(value) { return Number(fixed(value, 1)); }

  /* Python's round() and numpy's: a tie goes to the even neighbour */
  function roundHalfEven(value) {
    var rounded = Math.round(value);
    return rounded - value === 0.5 && rounded % 2 !== 0 ? rounded - 1 : rounded;
  }

  function ksToDraw(n) {
    var points = Math.max(CHART.max_points, roundHalfEven(CHART.points_per_decade * Math.log10(n))), ks = [];
    if (n <= points) { for (var k = 1; k <= n; k++) ks.push(k); return ks; }
    for (var i = 0; i < points; i++) {
      var value = roundHalfEven(Math.pow(n, i / (points - 1)));
      if (!ks.length || value > ks[ks.length - 1]) ks.push(value);
    }
    return ks;
  }

  function curveDescription(n, c, k) {
    if (c === 0) return "No sample passed, so pass@k is 0% for every k from 1 to " + count(n) +
      "; the marked point is k = " + count(k) + ".";
    if (c === n) return "Every sample passed, so pass@k is 100% for every k from 1 to " + count(n) +
      "; the marked point is k = " + count(k) + ".";
    return "pass@k rises from " + percent(c / n) + " at k = 1 to 100% at k = " + count(n - c + 1) +
      " and stays there; the marked point is k = " + count(k) + ".";
  }

  /* The chart's geometry, as charts.curve_chart computes it. */
  function curveChart(calc) {
    var n = calc.n, c = calc.c, logX = n > 50, yTexts = ["0%", "25%", "50%", "75%", "100%"];
    var left = Math.ceil(CHART.edge + CHART.y_gap + Math.max.apply(null, yTexts.map(textWidth)));
    var top = CHART.min_margin, right = CHART.width - CHART.min_margin;
    var bottom = CHART.height - Math.ceil(CHART.gap + (CHART.axis_label_dy + CHART.descent) * CHART.font + CHART.edge);
    var xOf = function (k) {
      if (n === 1) return (left + right) / 2;
      return left + (right - left) * (logX ? Math.log(k) / Math.log(n) : (k - 1) / (n - 1));
    };
    var yOf = function (p) { return bottom - (bottom - top) * p; };
    var ks = ksToDraw(n);
    var path = function (values) {
      return "M" + ks.map(function (k, i) { return fixed(xOf(k), 1) + "," + fixed(yOf(values[i]), 1); }).join(" L");
    };
    var biased = ks.map(function (k) { return biasedPassAtK(n, c, k); });
    var xLabel = function (value, text) {
      var x = xOf(value), half = textWidth(text) / 2;
      var anchor = x - half < left - CHART.y_gap + 3 ? "start" : x + half > CHART.width - CHART.edge ? "end" : "middle";
      return label(tenths(x), bottom + CHART.gap, text, anchor, CHART.x_tick_dy);
    };
    var xLabels = function (values) {
      var texts = axisTicks(values);
      return values.map(function (value, i) { return xLabel(value, texts[i]); });
    };
    var xTicks;
    if (!logX) {
      var step = Math.max(1, Math.ceil(n / 5)), values = [1];
      for (var k = step; k <= n; k += step) values.push(k);
      values.push(n);
      xTicks = spaced(xLabels(distinctSorted(values)));
    } else {
      var highest = Math.floor(Math.log10(n) + 1e-12);
      if (Math.pow(10, highest) > n) highest -= 1;
      for (var every = Math.ceil((highest + 1) / 7); every <= highest + 1; every++) {
        var powers = [];
        for (var p = 0; p <= highest; p += every) powers.push(Math.pow(10, p));
        var fitting = xLabels(powers);
        if (spaced(fitting).length === fitting.length) { xTicks = fitting; break; }
      }
    }
    return {
      left: left, top: top, right: right, bottom: bottom, logX: logX,
      unbiasedPath: path(ks.map(function (k) { return passAtK(n, c, k); })),
      biasedPath: path(biased),
      marker: [tenths(xOf(calc.k)), tenths(yOf(calc.passAtK))],
      xTicks: xTicks,
      yTicks: [0, 25, 50, 75, 100].map(function (t, i) {
        return label(left - CHART.y_gap, tenths(yOf(t / 100)), yTexts[i], "end", CHART.y_tick_dy);
      }),
      axisLabel: label(tenths((left + right) / 2), bottom + CHART.gap,
                       "k, samples drawn" + (logX ? " (log scale)" : ""), "middle", CHART.axis_label_dy, "axis-label"),
      description: curveDescription(n, c, calc.k)
    };
  }

  // ---- the page ------------------------------------------------------------------------------

  function svgElement(name, attributes, text) {   // in the namespace of the page's own <svg>
    var element = document.createElementNS(document.getElementById("curve-svg").namespaceURI, name);
    Object.keys(attributes).forEach(function (key) { element.setAttribute(key, attributes[key]); });
    if (text !== undefined) element.textContent = text;
    return element;
  }

  function textElement(item) {
    var attributes = {"class": item.css, x: item.x, y: item.y};
    if (item.dy) attributes.dy = item.dy + "em";
    if (item.anchor !== "start") attributes["text-anchor"] = item.anchor;
    return svgElement("text", attributes, item.text);
  }

  function drawChart(calc) {
    var chart = curveChart(calc), svg = document.getElementById("curve-svg");
    while (svg.lastChild) svg.removeChild(svg.lastChild);
    svg.setAttribute("viewBox", "0 0 " + CHART.width + " " + CHART.height);
    var title = "pass@k against k" + (chart.logX ? " (k on a log scale)" : "");
    svg.appendChild(svgElement("title", {id: "curve-title"}, title));
    svg.appendChild(svgElement("desc", {id: "curve-desc"}, chart.description));
    chart.yTicks.forEach(function (tick) {
      svg.appendChild(svgElement("line", {"class": "grid", x1: chart.left, x2: chart.right, y1: tick.y, y2: tick.y}));
      svg.appendChild(textElement(tick));
    });
    chart.xTicks.forEach(function (tick) {
      svg.appendChild(svgElement("line", {"class": "grid", x1: tick.x, x2: tick.x, y1: chart.top, y2: chart.bottom}));
      svg.appendChild(textElement(tick));
    });
    svg.appendChild(textElement(chart.axisLabel));
    svg.appendChild(svgElement("path", {"class": "curve-biased", d: chart.biasedPath}));
    svg.appendChild(svgElement("path", {"class": "curve", d: chart.unbiasedPath}));
    svg.appendChild(svgElement("line", {"class": "marker-line", x1: chart.marker[0], x2: chart.marker[0],
                                        y1: chart.top, y2: chart.bottom}));
    svg.appendChild(svgElement("circle", {"class": "marker", cx: chart.marker[0], cy: chart.marker[1], r: 6}));
  }

  function setText(id, text, title) {
    var element = document.getElementById(id);
    element.textContent = text;
    if (title !== undefined) element.title = title;
  }

  function plural(value, noun) { return count(value) + " " + noun + (value === 1 ? "" : "s"); }

  function showResult(calc) {
    var n = calc.n, c = calc.c, k = calc.k, shown = passPercent(calc.passAtK, n, c, k);
    setText("pass-at-k-label", "pass@" + count(k));
    setText("pass-at-k", shown, full(calc.passAtK));
    setText("pass-at-k-fraction", "fraction " + fraction(calc.passAtK) + " · higher is better");
    setText("pass-at-1", percent(calc.passAt1), full(calc.passAt1));
    setText("pass-at-1-sub", "the single-sample success rate, " + count(c) + "/" + count(n));
    var checked = calc.crossCheck !== null;
    setText("cross-check-value", checked ? percent(calc.crossCheck) : "—", checked ? full(calc.crossCheck) : "");
    document.getElementById("cross-check-agrees").hidden = !checked;
    document.getElementById("cross-check-skipped").hidden = checked;
    if (checked) {
      setText("agreeing-digits", String(calc.agreeingDigits));
      setText("agreeing-digits-unit", " significant digit" + (calc.agreeingDigits === 1 ? "" : "s"));
    }
    setText("sentence", "With " + plural(n, "sample") + " of which " + count(c) + " passed, the chance that at " +
      "least one of " + plural(k, "sample") + " drawn at random from them passes is " + shown + ".");
    var body = document.getElementById("k-table-body"), undefinedRows = false;
    while (body.lastChild) body.removeChild(body.lastChild);
    calc.table.forEach(function (row) {
      var tr = document.createElement("tr"), th = document.createElement("th");
      tr.dataset.k = row.k;
      if (row.k === k) tr.className = "chosen";
      th.scope = "row";
      th.textContent = "pass@" + count(row.k);
      tr.appendChild(th);
      var cells = row.passAtK === null ? [["n < k — undefined"]] :
        [[passPercent(row.passAtK, n, c, row.k), full(row.passAtK)], [fraction(row.passAtK)]];
      cells.forEach(function (cell) {
        var td = document.createElement("td");
        td.textContent = cell[0];
        if (cell[1]) td.title = cell[1];
        if (row.passAtK === null) { td.colSpan = 2; td.className = "undefined"; undefinedRows = true; }
        tr.appendChild(td);
      });
      body.appendChild(tr);
    });
    document.getElementById("undefined-note").hidden = !undefinedRows;
    setText("pass-hat-k-label", "pass^" + count(k) + " (all " + count(k) + " pass)");
    setText("pass-hat-k-value", percent(calc.passHatK), full(calc.passHatK));
    setText("biased-value", percent(calc.biasedPassAtK), full(calc.biasedPassAtK));
    var biasedNote;
    if (k > 1 && c > 0 && c < n) {
      var gap = decimal(Math.abs(calc.passAtK - calc.biasedPassAtK) * 100, 2);
      biasedNote = "It sits below the unbiased value" + (percent(calc.biasedPassAtK) === percent(calc.passAtK) ?
        " (by " + gap + " percentage points)." : " " + shown + ".");
    } else {
      biasedNote = "Here it equals the unbiased value: " + (k === 1 ? "with k = 1 both are c/n" :
        "with c = 0 or c = n there is nothing to be biased about") + ".";
    }
    setText("biased-note", biasedNote + " Shown for contrast, not used.");
    drawChart(calc);
    setText("curve-caption-k", count(k));
    document.title = "pass@" + count(k) + " = " + shown + " (n=" + count(n) + ", c=" + count(c) + ") — passk";
    document.getElementById("result").hidden = false;
  }

  var FIELDS = ["n", "c", "k", "ks"];

  function showErrors(query, withSummary) {
    FIELDS.forEach(function (name) {
      var input = document.getElementById(name), error = document.getElementById(name + "-error");
      var message = query.errors[name];
      error.textContent = message || "";
      error.hidden = !message;
      input.parentNode.classList.toggle("has-error", Boolean(message));
      if (message) input.setAttribute("aria-invalid", "true"); else input.removeAttribute("aria-invalid");
    });
    var wrong = Object.keys(query.errors).length, summary = document.getElementById("form-summary");
    summary.hidden = !wrong || !withSummary;
    summary.textContent = wrong ? "Please fix " + wrong + " field" + (wrong > 1 ? "s" : "") + " below." : "";
  }

  function formFields() {
    var fields = {};
    FIELDS.forEach(function (name) { fields[name] = document.getElementById(name).value; });
    return fields;
  }

  function linkFor(query) {
    var params = new URLSearchParams();
    ["n", "c", "k"].forEach(function (name) { params.set(name, String(query.values[name])); });
    if (query.values.ks && query.values.ks.length) params.set("ks", query.values.ks.join(","));
    return "?" + params.toString();
  }

  /* Read the fields, show their errors or the result; a result's numbers go into the address. */
  /* As the site's live update says it (static/app.js): the result stays, dimmed, under the sentences
     for what is wrong now (problems), or is up to date again (problems null). */
  function markStale(problems) {
    var result = document.getElementById("result"), note = document.getElementById("stale-note");
    result.classList.toggle("stale", problems !== null);
    note.hidden = problems === null;
    if (problems === null) return;
    var said = problems.join(" ");
    note.textContent = "Not updated: " + said + " The result below is for the last numbers that made one.";
    document.getElementById("live-status").textContent = said;
  }

  /* Show the fields' query: its result (and its numbers in the address), or what is wrong. On submit
     (submitted) the sentences go beside their fields and the result goes; while typing a result stays,
     marked out of date, and the sentences go beside the fields only when there is no result yet. */
  function update(query, submitted) {
    var wrong = FIELDS.filter(function (name) { return query.errors[name]; });
    var shown = !document.getElementById("result").hidden;
    if (wrong.length && !submitted && shown) {
      markStale(wrong.map(function (name) { return query.errors[name]; }));
      return false;
    }
    showErrors(query, submitted);
    if (wrong.length) {
      document.getElementById("result").hidden = true;
      return false;
    }
    var values = query.values;
    showResult(calculate(values.n, values.c, values.k, values.ks));
    markStale(null);
    try {
      history.replaceState(null, "", linkFor(query));
    } catch (error) {
      // a browser may refuse to change a file:// address; the result stands without it
    }
    document.getElementById("share-link").href = linkFor(query);
    return true;
  }

  function start() {
    var form = document.getElementById("calculator");
    if (!form) return;
    configure(JSON.parse(document.getElementById("passk-settings").textContent));
    var params = new URLSearchParams(location.search), fields = {};
    FIELDS.forEach(function (name) { fields[name] = params.getAll(name); });
    var query = readQuery(fields, true);
    FIELDS.forEach(function (name) { document.getElementById(name).value = query.raw[name] || ""; });
    update(query, true);
    var said = function () {   // the result, as the site's live update says it: the title without " — passk"
      document.getElementById("live-status").textContent = document.title.replace(/ — passk$/, "");
    };
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var fresh = readQuery(formFields(), false);
      if (update(fresh, true)) {
        said();
      } else {
        document.getElementById(FIELDS.filter(function (name) { return fresh.errors[name]; })[0]).focus();
      }
    });
    form.addEventListener("input", function () { if (update(readQuery(formFields(), false), false)) said(); });
  }

  root.passk = {
    configure: configure, passAtK: passAtK, passHatK: passHatK, missChance: missChance, biasedPassAtK: biasedPassAtK,
    fallingRatio: fallingRatio, agreeingDigits: agreeingDigits, calculate: calculate, readQuery: readQuery,
    percent: percent, fraction: fraction, full: full, curveChart: curveChart, fsum: fsum
  };
  if (typeof document !== "undefined") {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
  }
}(typeof window !== "undefined" ? window : globalThis));
