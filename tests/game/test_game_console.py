"""The console script and the start of the program: instructions offered after loading and
shown page by page in our own words, the headless screenshot, the window's close button."""


from game import main as console
from game.pages import instructions
from gamedriver import GameDriver


def test_instructions_question_after_loading_y_shows_pages_then_the_game():
    driver = GameDriver(seed=1, ask_instructions=True)
    driver.until("Do you want instructions? (Y/N)")
    driver.type("y")
    seen = []
    for _ in range(len(instructions.PAGES)):
        driver.run(2)
        seen.append(driver.text()[0].strip())
        assert "Press any key to go on" in driver.text()[23]
        driver.type(" ")
    assert [s.split("  ")[0] for s in seen] == [title for title, _ in instructions.PAGES]
    driver.until("The opening throw")


def test_instructions_n_goes_straight_to_the_game():
    driver = GameDriver(seed=1, ask_instructions=True)
    driver.until("Do you want instructions? (Y/N)")
    driver.type("x")                          # other keys are ignored
    driver.run(3)
    assert "Do you want instructions? (Y/N)" in "".join(driver.text())
    driver.type("N")
    driver.until("The opening throw")


def test_instructions_cover_every_topic_and_fit_the_screen():
    text = " ".join(" ".join(paragraphs) for _title, paragraphs in instructions.PAGES).lower()
    for topic in ("white", "black", "inner table", "f to a", "s to x", "anticlockwise",
                  "clockwise", "bar", "green", "bear", "k4", "4k", "z3", "enter", "quit",
                  "top die", "double", "higher"):
        assert topic in text, topic
    for page in range(len(instructions.PAGES)):
        lines = instructions.page_lines(page)
        assert len(lines) <= 20 and all(len(line) <= 32 for line in lines)


def test_console_script_headless_loads_the_tape_and_writes_a_screenshot(tmp_path):
    shot = tmp_path / "shot.png"
    code = console.main(["--tape", "instant", "--screenshot", str(shot), "--frames", "400",
                         "--seed", "3", "--keys", "n"])
    assert code == 0 and shot.stat().st_size > 1000


def test_window_close_button_exits_cleanly(monkeypatch):
    import pygame
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    calls = {"frames": 0}
    original = console.Runner.__call__

    def runner_then_close(self, machine):
        calls["frames"] += 1
        if calls["frames"] == 60:
            pygame.event.post(pygame.event.Event(pygame.QUIT))
        return original(self, machine)
    monkeypatch.setattr(console.Runner, "__call__", runner_then_close)
    assert console.main(["--tape", "instant", "--mute"]) == 0
    assert 60 <= calls["frames"] < 70
