package dev.spindle.maven;

import org.apache.maven.AbstractMavenLifecycleParticipant;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.model.Plugin;
import org.apache.maven.model.PluginExecution;
import org.apache.maven.project.MavenProject;

import java.util.List;

/**
 * With {@code <extensions>true</extensions>}, a project that declares the plugin gets goal
 * {@code weave} bound to {@code process-classes} and {@code process-test-classes} with no
 * {@code <executions>} of its own (executions it declares are kept as they are). Registered in
 * {@code META-INF/plexus/components.xml}.
 */
public class WeaveLifecycleParticipant extends AbstractMavenLifecycleParticipant {
    static final String KEY = "dev.spindle:spindle-maven-plugin";

    @Override
    public void afterProjectsRead(MavenSession session) {
        for (MavenProject project : session.getProjects()) {
            Plugin plugin = project.getBuild().getPluginsAsMap().get(KEY);
            if (plugin == null || !plugin.getExecutions().isEmpty()) {
                continue;
            }
            plugin.addExecution(execution("spindle-weave-classes", "process-classes"));
            plugin.addExecution(execution("spindle-weave-test-classes", "process-test-classes"));
        }
    }

    private static PluginExecution execution(String id, String phase) {
        PluginExecution e = new PluginExecution();
        e.setId(id);
        e.setPhase(phase);
        e.setGoals(List.of("weave"));
        return e;
    }
}
