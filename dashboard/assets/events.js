// Replay event list: a click on a row chooses that event. The rows are rendered once; the pick
// goes to the `replay-pick` store (with a time, so that choosing the same row again still counts).
(function () {
    document.addEventListener("click", function (event) {
        var row = event.target.closest && event.target.closest("#replay-events .event-row");
        if (!row || !window.dash_clientside || !window.dash_clientside.set_props) {
            return;
        }
        window.dash_clientside.set_props("replay-pick", {data: {seq: parseInt(row.dataset.seq, 10), at: Date.now()}});
    });
})();
