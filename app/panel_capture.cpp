// The panel's Capture section: recordings named per scene and time, a 10-s clip, GIF or MP4,
// screenshots and saving the scene (issue 14, items 3 and 4).
#include <imgui.h>

#include <chrono>
#include <filesystem>
#include <string>

#include "app/demo_app.h"
#include "app/panel.h"
#include "app/panel_widgets.h"
#include "app/ui/files.h"

namespace vorton {

void CaptureSection(DemoApp& app) {
    if (!ImGui::CollapsingHeader("Capture")) return;
    ViewSettings& v = app.View();
    ImGui::InputText("Folder", v.captureDir.data(), v.captureDir.size());
    HelpMarker("where recordings, screenshots and saved scenes go (created if missing)");
    ImGui::Combo("Format", &v.recordFormat, kRecordFormats, IM_ARRAYSIZE(kRecordFormats));
    HelpMarker("MP4 (H.264) or GIF (640 px wide, 25 frames/s) through ffmpeg, or a folder of PNG frames; one "
               "frame per step, played at 1/dt frames per second");
    const std::string name = RecordingName(app.CurrentScene().name, std::chrono::system_clock::now(),
                                           kRecordExtensions[std::clamp(v.recordFormat, 0, 2)][0] != '\0'
                                               ? kRecordExtensions[std::clamp(v.recordFormat, 0, 2)]
                                               : "png/");
    ImGui::TextDisabled("e.g. %s", name.c_str());
    if (ImGui::Button(app.IsRecording() ? "Stop recording" : "Record")) app.ToggleNamedRecording();
    ImGui::SameLine();
    ImGui::BeginDisabled(app.IsRecording());
    if (ImGui::Button("10 s clip")) app.ToggleNamedRecording(10.0);
    ImGui::EndDisabled();
    HelpMarker("10 s of simulated time, then the recording stops by itself");
    ImGui::SameLine();
    if (ImGui::Button("Screenshot (P)")) app.RequestScreenshot();
    ImGui::Checkbox("Include the interface in recordings", &app.RecordPanel());

    Subheading("Save scene");
    int state = v.saveCurrentState ? 1 : 0;
    ImGui::RadioButton("as at reset", &state, 0);
    ImGui::SameLine();
    ImGui::RadioButton("bodies as now", &state, 1);
    v.saveCurrentState = state == 1;
    HelpMarker("as at reset: the scene starts as it did, with your edits; as now: the bodies start where they "
               "are, at their present velocity (the fluid starts afresh)");
    if (ImGui::Button("Save scene")) {
        const std::filesystem::path dir(v.captureDir.data());
        std::error_code ec;
        if (!dir.empty()) std::filesystem::create_directories(dir, ec);
        const std::string file =
            (dir / RecordingName(app.CurrentScene().name, std::chrono::system_clock::now(), "json")).string();
        app.SaveScene(file, v.saveCurrentState);
    }
    HelpMarker("parameters, groups, bodies, the camera's view and the look, as a scene file: "
               "vorton --scene FILE loads it back to the same run");

    Subheading("Snapshot");
    if (ImGui::Button("Save snapshot")) {
        const std::filesystem::path dir(v.captureDir.data());
        std::error_code ec;
        if (!dir.empty()) std::filesystem::create_directories(dir, ec);
        app.SaveSnapshot((dir / RecordingName(app.CurrentScene().name, std::chrono::system_clock::now(), "vsnap")).string());
    }
    HelpMarker("the whole simulation state and the scene as a binary file: Load snapshot or "
               "vorton --snapshot-load FILE continues the run from here, bit for bit");
    ImGui::SameLine();
    if (ImGui::Button("Load snapshot")) app.LoadSnapshot(v.snapshotFile.data());
    HelpMarker("runs from the snapshot named below (the last saved, or type a path); a file that does not "
               "load leaves the running scene alone");
    ImGui::InputText("Snapshot file", v.snapshotFile.data(), v.snapshotFile.size());
}

}  // namespace vorton
