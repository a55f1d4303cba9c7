// The scribe (/record/<game>) and the forms made from the event schemas.
// 1. A form of the dashboard (class "scribe-form") is an HTML form so that Enter in a field
//    submits it (the browser clicks its submit button, which Dash hears); the browser itself must
//    not send it anywhere. Enter in a dropdown's search box or list chooses an option and must not
//    also submit the form: its default (the form's submission) is cancelled, the dropdown still
//    hears the key.
// 2. A click or a tap on the map (not a drag) is read in the map's own coordinates and given to
//    the `record-click` store: the server turns it into a hex or a point in inches.
(function () {
    document.addEventListener("submit", function (event) {
        if (event.target.closest && event.target.closest(".scribe-form")) {
            event.preventDefault();
        }
    }, true);

    document.addEventListener("keydown", function (event) {
        var target = event.target;
        if (event.key === "Enter" && target.closest && target.closest(".scribe-form")
                && target.closest(".dash-dropdown-search, .dash-dropdown-options")) {
            event.preventDefault();
        }
    }, true);

    var down = null;
    var SLOP = 6;  // pixels a press may move and still be a click

    function plotOf(target) {
        var map = target && target.closest && target.closest("#record-map");
        return map && map.querySelector(".js-plotly-plot");
    }

    document.addEventListener("pointerdown", function (event) {
        var plot = plotOf(event.target);
        down = plot ? {plot: plot, x: event.clientX, y: event.clientY} : null;
    }, true);

    document.addEventListener("pointerup", function (event) {
        var pressed = down;
        down = null;
        if (!pressed || Math.abs(event.clientX - pressed.x) > SLOP || Math.abs(event.clientY - pressed.y) > SLOP) {
            return;
        }
        var layout = pressed.plot._fullLayout;
        var xa = layout && layout.xaxis, ya = layout && layout.yaxis;
        if (!xa || !ya || !window.dash_clientside || !window.dash_clientside.set_props) {
            return;
        }
        var box = pressed.plot.getBoundingClientRect();
        var px = pressed.x - box.left - xa._offset, py = pressed.y - box.top - ya._offset;
        if (px < 0 || py < 0 || px > xa._length || py > ya._length) {
            return;
        }
        window.dash_clientside.set_props("record-click", {data: {x: xa.p2d(px), y: ya.p2d(py), at: Date.now()}});
    }, true);
})();
