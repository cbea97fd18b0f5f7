// llmtriage HTML report: series toggles, a crosshair shared by the timeline's lanes with a
// tooltip of every series at that time, and zoom into a time range by dragging across a lane. Everything is readable without this script: the legend
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
  if (!frames.length) return;
  var T1 = parseFloat(frames[0].getAttribute("data-t1")) || 1;
  var SVGNS = "http://www.w3.org/2000/svg";

  // Zoom: drag across a lane to show that time range in every lane; double-click shows it all.
  // The readings' group is stretched (clipped to the frame); dots and labels are scaled back so
  // they keep their shape; the static time ticks are replaced by the range's own.
  var zoom = null;  // [from, to], seconds since the first reading
  function view() { return zoom || [0, T1]; }
  function niceStep(span) {
    var raw = span / 8, p = Math.pow(10, Math.floor(Math.log(raw) / Math.LN10));
    var m = raw / p;
    return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
  }
  var note = document.createElement("p");
  note.className = "caption zoom-note";
  var lanes = document.querySelector("#timeline .lanes");
  lanes.parentNode.insertBefore(note, lanes);
  function apply() {
    var v = view(), k = T1 / (v[1] - v[0]);
    Array.prototype.forEach.call(frames, function (g, i) {
      var left = parseFloat(g.getAttribute("data-left")), width = parseFloat(g.getAttribute("data-width"));
      var top = parseFloat(g.getAttribute("data-top")), height = parseFloat(g.getAttribute("data-height"));
      var plot = g.querySelector(".plot"), xt = g.querySelector(".x-ticks"), zt = g.querySelector(".zoom-ticks");
      var x0 = left + v[0] / T1 * width;
      if (zoom) plot.setAttribute("transform", "translate(" + (left - k * x0) + " 0) scale(" + k + " 1)");
      else plot.removeAttribute("transform");
      Array.prototype.forEach.call(plot.querySelectorAll("circle, text"), function (el) {
        var cx = parseFloat(el.getAttribute(el.tagName === "circle" ? "cx" : "x"));
        if (zoom) el.setAttribute("transform", "translate(" + cx + " 0) scale(" + (1 / k) + " 1) translate(" + (-cx) + " 0)");
        else el.removeAttribute("transform");
      });
      xt.style.display = zoom ? "none" : "";
      while (zt.firstChild) zt.removeChild(zt.firstChild);
      if (!zoom) return;
      var step = niceStep(v[1] - v[0]), last = i === frames.length - 1;
      for (var t = Math.ceil(v[0] / step) * step; t <= v[1] + 1e-9; t += step) {
        var x = left + (t - v[0]) / (v[1] - v[0]) * width;
        var ln = document.createElementNS(SVGNS, "line");
        ln.setAttribute("x1", x); ln.setAttribute("x2", x); ln.setAttribute("y1", top); ln.setAttribute("y2", top + height);
        ln.setAttribute("class", "grid");
        zt.appendChild(ln);
        if (last) {
          var tx = document.createElementNS(SVGNS, "text");
          tx.setAttribute("x", x); tx.setAttribute("y", top + height + 16); tx.setAttribute("class", "tick");
          tx.setAttribute("text-anchor", "middle");
          tx.textContent = fmt(Number(t.toPrecision(6)), "s");
          zt.appendChild(tx);
        }
      }
    });
    note.textContent = zoom ? "Zoomed to " + fmt(v[0], "s") + " – " + fmt(v[1], "s") + " (double-click a lane to see it all)" : "";
  }
  var drag = null;  // {svg, left, width, x0, rect}
  function svgX(svg, ev) {
    var r = svg.getBoundingClientRect(), vb = svg.viewBox.baseVal;
    return (ev.clientX - r.left) * vb.width / r.width;
  }
  Array.prototype.forEach.call(frames, function (g) {
    var svg = g.ownerSVGElement;
    var left = parseFloat(g.getAttribute("data-left")), width = parseFloat(g.getAttribute("data-width"));
    svg.addEventListener("mousedown", function (ev) {
      var x = svgX(svg, ev);
      if (ev.button !== 0 || x < left || x > left + width) return;
      ev.preventDefault();
      var rect = document.createElementNS(SVGNS, "rect");
      rect.setAttribute("class", "zoom-sel");
      rect.setAttribute("y", g.getAttribute("data-top")); rect.setAttribute("height", g.getAttribute("data-height"));
      rect.setAttribute("x", x); rect.setAttribute("width", 0);
      g.appendChild(rect);
      drag = {svg: svg, left: left, width: width, x0: x, rect: rect};
    });
    svg.addEventListener("dblclick", function () { zoom = null; apply(); });
  });
  window.addEventListener("mousemove", function (ev) {
    if (!drag) return;
    var x = Math.max(drag.left, Math.min(drag.left + drag.width, svgX(drag.svg, ev)));
    drag.rect.setAttribute("x", Math.min(x, drag.x0)); drag.rect.setAttribute("width", Math.abs(x - drag.x0));
  });
  window.addEventListener("mouseup", function (ev) {
    if (!drag) return;
    var d = drag;
    drag = null;
    d.rect.parentNode.removeChild(d.rect);
    var x = Math.max(d.left, Math.min(d.left + d.width, svgX(d.svg, ev)));
    if (Math.abs(x - d.x0) < 4) return;
    var v = view(), at = function (px) { return v[0] + (px - d.left) / d.width * (v[1] - v[0]); };
    zoom = [at(Math.min(x, d.x0)), at(Math.max(x, d.x0))];
    apply();
  });

  function hide() {
    tip.style.display = "none";
    each("#timeline .crosshair", function (c) { c.setAttribute("visibility", "hidden"); });
  }
  Array.prototype.forEach.call(frames, function (g) {
    var svg = g.ownerSVGElement;
    var left = parseFloat(g.getAttribute("data-left")), width = parseFloat(g.getAttribute("data-width"));
    svg.addEventListener("mouseleave", hide);
    svg.addEventListener("mousemove", function (ev) {
      var r = svg.getBoundingClientRect(), vb = svg.viewBox.baseVal;
      var x = (ev.clientX - r.left) * vb.width / r.width;
      if (x < left || x > left + width) { hide(); return; }
      var v = view(), t = v[0] + (x - left) / width * (v[1] - v[0]);
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
