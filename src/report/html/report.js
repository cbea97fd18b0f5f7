// llmtriage HTML report: series toggles, and a crosshair shared by the timeline's lanes with a
// tooltip of every series at that time. Everything is readable without this script: the legend
// is a list of names, each dot carries a <title>, the tables hold the numbers.
(function () {
  "use strict";
  var data = null;
  try { data = JSON.parse(document.getElementById("llmtriage-data").textContent); } catch (e) { return; }

  function each(sel, fn) { Array.prototype.forEach.call(document.querySelectorAll(sel), fn); }

  // Series toggles: a legend entry hides or shows every element of its series, in every chart.
  each(".legend-item", function (b) {
    b.setAttribute("aria-pressed", "true");
    b.addEventListener("click", function () {
      var id = b.getAttribute("data-toggle"), off = !b.classList.contains("off");
      each('.legend-item[data-toggle="' + id + '"]', function (x) {
        x.classList.toggle("off", off); x.setAttribute("aria-pressed", String(!off));
      });
      each('[data-series="' + id + '"]', function (x) { x.classList.toggle("off", off); });
    });
  });

  var tl = data && data.timeline;
  if (!tl || !tl.series) return;
  var tip = document.createElement("div");
  tip.id = "tooltip";
  document.body.appendChild(tip);

  function fmt(v, unit) {
    if (v === null || v === undefined) return "—";
    if (unit === "fraction") return (v * 100).toFixed(1) + "%";
    if (unit === "s") return v < 1 ? (v * 1000).toPrecision(3) + " ms" : v.toPrecision(3) + " s";
    var s = Math.abs(v) >= 100 ? v.toFixed(0) : String(Number(v.toPrecision(3)));
    return s + (unit ? " " + unit : "");
  }
  // The reading nearest to t (t_s ascending).
  function nearest(ts, t) {
    var lo = 0, hi = ts.length - 1;
    while (hi - lo > 1) { var mid = (lo + hi) >> 1; if (ts[mid] < t) lo = mid; else hi = mid; }
    return Math.abs(ts[lo] - t) <= Math.abs(ts[hi] - t) ? lo : hi;
  }
  function hidden(id) {
    var b = document.querySelector('.legend-item[data-toggle="' + id + '"]');
    return b && b.classList.contains("off");
  }

  var frames = document.querySelectorAll("#timeline .lane-frame");
  function hide() {
    tip.style.display = "none";
    each("#timeline .crosshair", function (c) { c.setAttribute("visibility", "hidden"); });
  }
  Array.prototype.forEach.call(frames, function (g) {
    var svg = g.ownerSVGElement;
    var left = parseFloat(g.getAttribute("data-left")), width = parseFloat(g.getAttribute("data-width"));
    var t1 = parseFloat(g.getAttribute("data-t1"));
    svg.addEventListener("mouseleave", hide);
    svg.addEventListener("mousemove", function (ev) {
      var r = svg.getBoundingClientRect(), vb = svg.viewBox.baseVal;
      var x = (ev.clientX - r.left) * vb.width / r.width;
      if (x < left || x > left + width) { hide(); return; }
      var t = (x - left) / width * t1;
      each("#timeline .crosshair", function (c) {
        c.setAttribute("x1", x); c.setAttribute("x2", x); c.setAttribute("visibility", "visible");
      });
      var lines = ["t = " + fmt(t, "s")];
      tl.series.forEach(function (s) {
        if (!s.t_s.length || hidden(s.id)) return;
        var i = nearest(s.t_s, t);
        lines.push(s.label + ": " + fmt(s.v[i], s.unit) + "  (at " + fmt(s.t_s[i], "s") + ")");
      });
      tip.textContent = lines.join("\n");
      tip.style.display = "block";
      var tx = ev.clientX + 14, ty = ev.clientY + 14;
      if (tx + tip.offsetWidth > window.innerWidth) tx = ev.clientX - tip.offsetWidth - 14;
      if (ty + tip.offsetHeight > window.innerHeight) ty = ev.clientY - tip.offsetHeight - 14;
      tip.style.left = tx + "px"; tip.style.top = ty + "px";
    });
  });
})();
