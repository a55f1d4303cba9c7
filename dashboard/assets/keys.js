// Replay keyboard: left/right arrows step, Home/End go to the first/last event; n and Shift+Right
// go to the next event with a finding, p and Shift+Left to the previous one (ids.py, the replay page
// says so too). Keys typed into a field (the slider's number box, the token, a dropdown) are left
// alone, and so are combinations with Ctrl, Alt or Meta (the browser's own: Ctrl+P prints).
(function () {
    var KEYS = {ArrowLeft: "replay-prev", ArrowRight: "replay-next", Home: "replay-first", End: "replay-last",
                n: "replay-next-finding", p: "replay-prev-finding"};
    var SHIFTED = {ArrowLeft: "replay-prev-finding", ArrowRight: "replay-next-finding"};
    document.addEventListener("keydown", function (event) {
        var target = event.target;
        var tag = target && target.tagName;
        if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || (target && target.isContentEditable)) {
            return;
        }
        if (target && target.closest && target.closest("[role=slider]")) {
            return;
        }
        if (event.ctrlKey || event.altKey || event.metaKey) {
            return;
        }
        var id = event.shiftKey ? SHIFTED[event.key] : KEYS[event.key];
        var button = id && document.getElementById(id);
        if (button) {
            event.preventDefault();
            button.click();
        }
    });
})();
