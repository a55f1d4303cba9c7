// Replay keyboard: left/right arrows step, Home/End go to the first/last event.
// Keys typed into a field (the slider's number box, the token, a dropdown) are left alone.
(function () {
    var KEYS = {ArrowLeft: "replay-prev", ArrowRight: "replay-next", Home: "replay-first", End: "replay-last"};
    document.addEventListener("keydown", function (event) {
        var target = event.target;
        var tag = target && target.tagName;
        if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || (target && target.isContentEditable)) {
            return;
        }
        if (target && target.closest && target.closest("[role=slider]")) {
            return;
        }
        var id = KEYS[event.key];
        var button = id && document.getElementById(id);
        if (button) {
            event.preventDefault();
            button.click();
        }
    });
})();
